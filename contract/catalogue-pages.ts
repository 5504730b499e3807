import type { ThreadCard } from './thread-card.ts';
import { THREAD_FILTERS, type ThreadFilter } from './thread-filter.ts';

// No zod import here: islands import this module.

/** Cards per page file, and per page of the home grid (the first page is pre-rendered). */
export const CATALOGUE_PAGE_SIZE = 24;

/**
 * A list the catalogue is paged in: one per home filter, and one per topic. Its key is also its
 * folder: /data/pages/{key}/{n}.json.
 */
export type CatalogueListKey = ThreadFilter | `topics/${string}`;

/** The list key of one topic's threads. */
export function topicListKey(slug: string): CatalogueListKey {
  return `topics/${slug}`;
}

/** One page file: the cards of one page of one list, with where it stands in the whole. */
export interface CataloguePage {
  /** The catalogue version it was written for (the manifest's). */
  version: string;
  list: CatalogueListKey;
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
  cards: ThreadCard[];
}

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
