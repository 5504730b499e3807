import type { ThreadCard } from '../../../contract/thread-card.ts';
import type { Database } from '../../db/client.ts';
import { listApprovedCardPage } from '../../repositories/card-columns.ts';
import type { CatalogueKey } from '../../repositories/catalogue.ts';
import { toThreadCard, type PublicCardOptions } from '../../views/thread-views.ts';

/** Rows a query reads: a page costs the same at any depth (keyset), and 1,000 cards are a few hundred KB. */
export const EXPORT_PAGE_ROWS = 1000;

/**
 * The catalogue's cards in catalogue order, batch by batch. A source can be read more than once:
 * the export reads it twice (counts and version first, then the files).
 */
export type CardSource = () => AsyncIterable<readonly ThreadCard[]>;

/** A source over cards already in memory (the sample, a downloaded catalogue, tests). */
export function cardsInMemory(cards: readonly ThreadCard[]): CardSource {
  return async function* () {
    for (let start = 0; start < cards.length; start += EXPORT_PAGE_ROWS)
      yield cards.slice(start, start + EXPORT_PAGE_ROWS);
  };
}

/** The approved threads as cards, read from the database a page at a time. */
export function approvedCards(
  db: Database,
  cards: PublicCardOptions,
  pageRows = EXPORT_PAGE_ROWS,
): CardSource {
  return async function* () {
    let after: CatalogueKey | null = null;
    do {
      const page: Awaited<ReturnType<typeof listApprovedCardPage>> = await listApprovedCardPage(
        db,
        after,
        pageRows,
      );
      if (page.rows.length > 0) yield page.rows.map((row) => toThreadCard(row, cards));
      after = page.next;
    } while (after);
  };
}
