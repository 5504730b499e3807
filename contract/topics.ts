import type { ThreadCard } from './thread-card.ts';

/** A topic with approved threads, as the manifest lists it. */
export interface CatalogueTopic {
  /** The tag as the first approved thread spelled it, e.g. "DesignSystems". */
  tag: string;
  /** Its URL form: /topics/{slug}. */
  slug: string;
  count: number;
}

/**
 * The URL form of a topic tag: lower case, accents dropped from Latin letters, every other run of
 * characters but letters and digits a dash.
 * Tags that differ only in case or punctuation ("UX Design", "ux-design") are one topic. Null when
 * nothing is left (a tag of emoji only has no page).
 */
export function topicSlug(tag: string): string | null {
  const words = tag
    .normalize('NFKD')
    // Accents come off Latin letters only: in other scripts a mark can make another letter (й, ガ).
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  // Cut by characters, not UTF-16 units: half a character would make an invalid URL.
  const slug = Array.from(words).slice(0, 60).join('').replace(/-+$/, '');
  return slug === '' ? null : slug;
}

/** The page of one topic. */
export function topicPath(slug: string): string {
  return `/topics/${encodeURIComponent(slug)}`;
}

/** Groups cards by topic, keeping their order; topics with the most threads first. */
export function groupByTopic(cards: readonly ThreadCard[]): { topic: CatalogueTopic; cards: ThreadCard[] }[] {
  const groups = new Map<string, { topic: CatalogueTopic; cards: ThreadCard[] }>();
  for (const card of cards) {
    const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
    if (!slug || !card.topic_tag) continue;
    let group = groups.get(slug);
    if (!group) {
      group = { topic: { tag: card.topic_tag, slug, count: 0 }, cards: [] };
      groups.set(slug, group);
    }
    group.topic.count += 1;
    group.cards.push(card);
  }
  return [...groups.values()].sort(
    (a, b) => b.topic.count - a.topic.count || a.topic.slug.localeCompare(b.topic.slug),
  );
}
