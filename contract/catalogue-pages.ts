import { ThreadCardListSchema, type ThreadCard } from './thread-card.ts';
import { THREAD_FILTERS, type ThreadFilter } from './thread-filter.ts';
import { z } from './zod.ts';

/** Cards per page file, and per page of the home grid (the first page is pre-rendered). */
export const CATALOGUE_PAGE_SIZE = 24;

/**
 * A list the catalogue is paged in: one per home filter, and one per topic. Its key is also its
 * folder: /data/pages/{key}/{n}.json.
 */
export const CatalogueListKeySchema = z.union([
  z.enum(THREAD_FILTERS.map((filter) => filter.id) as [ThreadFilter, ...ThreadFilter[]]),
  z.templateLiteral(['topics/', z.string()]),
]);
export type CatalogueListKey = z.infer<typeof CatalogueListKeySchema>;

/** The list key of one topic's threads. */
export function topicListKey(slug: string): CatalogueListKey {
  return `topics/${slug}`;
}

/**
 * One page file: the cards of one page of one list, with where it stands in the whole.
 *
 * Trap (decision 037): a first page may hold more than CATALOGUE_PAGE_SIZE cards. Threads approved
 * since the last full export (the tail, newer than every other card) are put in front of the first
 * page of each list they belong to, so an approval rewrites a few first pages instead of every page.
 * Such a first page says how many (`tail`) and which (`head`, the manifest's too); its `total`
 * counts them, while `pages` and the other pages' `total` count the full export's cards only.
 * Readers treat a list as its pages' cards in order and show them CATALOGUE_PAGE_SIZE at a time.
 */
export const CataloguePageSchema = z.object({
  /** The full export it belongs to (the manifest's `version`): every page of a list shares it. */
  version: z.string(),
  list: CatalogueListKeySchema,
  /** 1-based. */
  page: z.int().check(z.positive()),
  /** The page files of the list. */
  pages: z.int().check(z.positive()),
  /** Cards in the whole list (on page 1 with its tail; on later pages without it). */
  total: z.int().check(z.nonnegative()),
  /** Page 1 only: how many of its first cards are the tail's (absent: none). */
  tail: z.optional(z.int().check(z.nonnegative())),
  /** Page 1 only: the manifest's `head` it was written with (absent: no tail). */
  head: z.optional(z.string()),
  cards: ThreadCardListSchema,
});
export type CataloguePage = z.infer<typeof CataloguePageSchema>;

/** Where a list's page is served. */
export function pageUrl(list: CatalogueListKey, page: number): string {
  // A topic slug may hold any letter: each segment is encoded on its own.
  return `/data/pages/${list.split('/').map(encodeURIComponent).join('/')}/${page}.json`;
}

/** How many pages a list of `total` cards needs; an empty list still has its (empty) first page. */
export function pageCount(total: number, pageSize = CATALOGUE_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Splits a list into its page files, first page first. */
export function paginate(
  cards: readonly ThreadCard[],
  {
    list,
    version,
    pageSize = CATALOGUE_PAGE_SIZE,
  }: { list: CatalogueListKey; version: string; pageSize?: number },
): CataloguePage[] {
  const pages = pageCount(cards.length, pageSize);
  return Array.from({ length: pages }, (_, index) => ({
    version,
    list,
    page: index + 1,
    pages,
    total: cards.length,
    cards: cards.slice(index * pageSize, (index + 1) * pageSize),
  }));
}

/** Whether a string names a home filter's list. */
export function isThreadFilter(value: string | null): value is ThreadFilter {
  return THREAD_FILTERS.some((filter) => filter.id === value);
}
