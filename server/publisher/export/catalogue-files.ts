import { createHash, type Hash } from 'node:crypto';
import {
  CATALOGUE_PAGE_SIZE,
  paginate,
  topicListKey,
  type CatalogueListKey,
} from '../../../contract/catalogue-pages.ts';
import type { Manifest } from '../../../contract/manifest.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { matchesFilter } from '../../../contract/thread-filter.ts';
import { groupByTopic } from '../../../contract/topics.ts';
import { searchIndexFiles } from './search-index.ts';

/** How many of the newest cards go into threads-recent.json. */
export const RECENT_COUNT = 24;

/** Bumped when the layout of the derived files changes, so browsers drop pages cached in the old one. */
const FORMAT = 'pages-1';

/** The spec's whole files (section 7), kept for compatibility: the site itself reads the pages. */
export const WHOLE_FILES = [
  'threads-all.json',
  'threads-text.json',
  'threads-images.json',
  'threads-recent.json',
];

/** The whole files the export streams (the others are small and written whole, by writeIfChanged). */
export const STREAMED_FILES = ['threads-all.json', 'threads-text.json', 'threads-images.json'] as const;

/** The folders of files derived from the cards; anything in them that an export did not write is stale. */
export const DERIVED_FOLDERS = ['pages', 'search'];

/**
 * The catalogue files that are public (served at /data/*): the manifest, the spec's whole files, the
 * pages and the search index. Anything else in the folder stays private.
 */
export const PUBLIC_CATALOGUE_FILE =
  /^(manifest|threads-(all|text|images|recent))\.json$|^pages\/(all|text|images|topics\/[^/]+)\/\d+\.json$|^search\/[^/]+\.json$/;

export const MANIFEST_FILE = 'manifest.json';

/** The manifest as written: pretty, with a final newline (people read it). */
export function manifestBody(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export interface CatalogueDates {
  generatedAt: Date;
  nextUpdate: Date;
}

function newestFirst(cards: readonly ThreadCard[]): ThreadCard[] {
  return cards
    .map((card, index) => ({ card, index, time: card.timestamp ? Date.parse(card.timestamp) : -Infinity }))
    .sort((a, b) => b.time - a.time || a.index - b.index)
    .map(({ card }) => card);
}

/**
 * The hash behind the version, fed threads-all.json's bytes: whole (`catalogueVersion`) or piece by
 * piece as the export streams them (`[`, the cards' JSON joined by `,`, `]`); `versionOf` reads it.
 */
export function catalogueVersionHash(): Hash {
  return createHash('sha256').update(`${FORMAT}\n`);
}

/** The version a `catalogueVersionHash` fed the whole of threads-all.json stands for. */
export function versionOf(hash: Hash): string {
  return hash.digest('hex').slice(0, 16);
}

/** A short digest of the cards: equal catalogues have equal versions, and any change changes it. */
export function catalogueVersion(allJson: string): string {
  return versionOf(catalogueVersionHash().update(allJson));
}

/**
 * Every public catalogue file for `cards` (in catalogue order, newest first), by path relative to
 * the catalogue folder, the manifest last. Holds everything in memory: the export streams the same
 * files (catalogue-stream.ts); this stays the reference they are compared with, and serves small
 * catalogues (the committed sample, tests): the spec's whole files, each list's pages (All, Text,
 * Images and one per topic) and the search index, all stamped with one version.
 */
export function catalogueFiles(
  cards: readonly ThreadCard[],
  { generatedAt, nextUpdate }: CatalogueDates,
): { files: [string, string][]; manifest: Manifest } {
  const allJson = JSON.stringify(cards);
  const version = catalogueVersion(allJson);
  const text = cards.filter((card) => matchesFilter(card, 'text'));
  const images = cards.filter((card) => matchesFilter(card, 'images'));
  const topics = groupByTopic(cards);
  const files: [string, string][] = [
    ['threads-all.json', allJson],
    ['threads-text.json', JSON.stringify(text)],
    ['threads-images.json', JSON.stringify(images)],
    ['threads-recent.json', JSON.stringify(newestFirst(cards).slice(0, RECENT_COUNT))],
  ];
  const lists: [CatalogueListKey, readonly ThreadCard[]][] = [
    ['all', cards],
    ['text', text],
    ['images', images],
    ...topics.map(({ topic, cards: own }): [CatalogueListKey, ThreadCard[]] => [
      topicListKey(topic.slug),
      own,
    ]),
  ];
  for (const [list, listCards] of lists) {
    for (const page of paginate(listCards, { list, version })) {
      files.push([`pages/${list}/${page.page}.json`, JSON.stringify(page)]);
    }
  }
  files.push(...searchIndexFiles(cards, version));

  const manifest: Manifest = {
    generatedAt: generatedAt.toISOString(),
    nextUpdate: nextUpdate.toISOString(),
    counts: { all: cards.length, text: text.length, images: images.length },
    version,
    pageSize: CATALOGUE_PAGE_SIZE,
    topics: topics.map(({ topic }) => topic),
  };
  files.push([MANIFEST_FILE, manifestBody(manifest)]);
  return { files, manifest };
}
