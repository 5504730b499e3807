import type { ThreadCard } from '../../../contract/thread-card.ts';
import { hasThreadPage, RELATED_THREADS } from '../../../contract/thread-page.ts';
import { topicSlug, type CatalogueTopic } from '../../../contract/topics.ts';
import type { Database } from '../../db/client.ts';
import { createThreadPagesRepository } from '../../repositories/thread-pages.ts';
import { toThreadCard, type PublicCardOptions } from '../../views/thread-views.ts';

/** What one thread's page shows: its card, its topic (when it has a page), a few newest of that topic. */
export interface ThreadPageData {
  card: ThreadCard;
  topic: Pick<CatalogueTopic, 'tag' | 'slug'> | null;
  related: ThreadCard[];
}

/**
 * The thread pages' reads (decision 046): two indexed queries per page at any catalogue size.
 * `cards` as the export's: the API's origin for pictures, and the display mode (decision 070).
 */
export function createThreadPages(db: Database, cards: PublicCardOptions = {}) {
  const repository = createThreadPagesRepository(db);
  /** The approved thread's row and card (one primary-key query); null for any other id. */
  async function approved(id: string) {
    if (!hasThreadPage(id)) return null;
    const row = await repository.findPublic(id.toLowerCase());
    return row ? { row, card: toThreadCard(row, cards) } : null;
  }
  return {
    /** The card of an approved thread, without its related threads (its preview picture's words). */
    async card(id: string): Promise<ThreadCard | null> {
      return (await approved(id))?.card ?? null;
    },

    /** The page of an approved thread (a card of the catalogue); null for any other id, well formed or not. */
    async find(id: string): Promise<ThreadPageData | null> {
      const found = await approved(id);
      if (!found) return null;
      const { row, card } = found;
      const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
      if (!card.topic_tag || !slug) return { card, topic: null, related: [] };
      const rows = await repository.related(card.topic_tag, row.id, RELATED_THREADS);
      // The query matches the tag without regard to case; the topic page groups by slug, the same or finer.
      const related = rows
        .map((other) => toThreadCard(other, cards))
        .filter((other) => other.topic_tag && topicSlug(other.topic_tag) === slug);
      return { card, topic: { tag: card.topic_tag, slug }, related };
    },
  };
}
export type ThreadPages = ReturnType<typeof createThreadPages>;
