/**
 * What changed in the public content: the pre-rendered pages and cached reads that depend on it.
 * 'decisions': a thread decision that changes no page (a rejection); only the moderation log reads it.
 */
export type ContentChange = 'profiles' | 'threads' | 'decisions';
