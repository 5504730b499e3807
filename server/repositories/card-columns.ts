import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { threads } from '../db/schema.ts';
import { approvedAfter, CATALOGUE_ORDER_BY, withoutSort, type CatalogueKey } from './catalogue.ts';
import type { ThreadRow } from './threads.ts';

/** What a public card is drawn from (toThreadCard): the columns the export reads, and no other. */
export type CardRow = Pick<
  ThreadRow,
  | 'id'
  | 'shortcode'
  | 'status'
  | 'username'
  | 'authorName'
  | 'text'
  | 'imageUrl'
  | 'topicTag'
  | 'permalink'
  | 'likes'
  | 'replies'
  | 'shownAsCard'
  | 'postedAt'
  | 'createdAt'
>;

/** A CardRow as the database sends it: CARD_ARRAY's elements, in its order. */
type CardTuple = [
  id: string,
  shortcode: string,
  username: string | null,
  authorName: string | null,
  text: string,
  imageUrl: string | null,
  topicTag: string | null,
  permalink: string,
  likes: number | null,
  replies: number | null,
  shownAsCard: boolean,
  postedAt: string | null,
  createdAt: string,
];

/**
 * A card's columns as one JSON array per row. A row of 22 columns costs the drivers a field each
 * (decoded, parsed, mapped into Drizzle's nested object) and most of them are never shown: one
 * JSON value of the 13 a card needs, parsed at once, halves the CPU of reading the catalogue.
 * Trap: the times travel as text (timestamptz's own output, the text Drizzle would parse), not
 * as JSON's ISO form, so each becomes the same Date, microseconds cut the same way, and
 * `postedAt ?? createdAt` is the text of the catalogue order's instant: the keyset key.
 */
const CARD_ARRAY = sql<CardTuple>`json_build_array(${threads.id}, ${threads.shortcode}, ${threads.username},
  ${threads.authorName}, ${threads.text}, ${threads.imageUrl}, ${threads.topicTag}, ${threads.permalink},
  ${threads.likes}, ${threads.replies}, ${threads.shownAsCard}, ${threads.postedAt}::text, ${threads.createdAt}::text)`;

/**
 * One page of the approved threads in catalogue order as card rows: listApprovedPage's page (the
 * same keyset, the same index) with only the columns a card shows.
 */
export async function listApprovedCardPage(
  db: Database,
  after: CatalogueKey | null,
  limit: number,
): Promise<{ rows: CardRow[]; next: CatalogueKey | null }> {
  const tuples = await withoutSort(db, (page) =>
    page
      .select({ card: CARD_ARRAY })
      .from(threads)
      .where(approvedAfter(after))
      .orderBy(...CATALOGUE_ORDER_BY)
      .limit(limit),
  );
  const rows = tuples.map(
    ({
      card: [
        id,
        shortcode,
        username,
        authorName,
        text,
        imageUrl,
        topicTag,
        permalink,
        likes,
        replies,
        shownAsCard,
        posted,
        created,
      ],
    }): CardRow => ({
      id,
      shortcode,
      status: 'approved',
      username,
      authorName,
      text,
      imageUrl,
      topicTag,
      permalink,
      likes,
      replies,
      shownAsCard,
      postedAt: posted === null ? null : new Date(posted),
      createdAt: new Date(created),
    }),
  );
  const last = tuples.at(-1)?.card;
  return {
    rows,
    next: last && tuples.length === limit ? { at: last[11] ?? last[12], shortcode: last[1] } : null,
  };
}
