/** Product-wide names and dates shown in the layout and the legal pages. */
export const SITE = {
  title: 'Curated Threads',
  subtitle: 'Curated Threads Posts from Threads',
  description:
    'A human-curated collection of the best design and UI posts from Threads, filterable by text and images.',
  studio: 'Paper Lantern Studio',
  /** The date the privacy policy, terms and data-deletion texts were last changed. */
  legalUpdated: '2026-12-07',
  defaultContactEmail: 'privacy@curated-threads.example',
} as const;
