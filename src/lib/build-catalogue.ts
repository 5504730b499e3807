// Build-time only: reads the public catalogue that the home and filter pages, topic pages and feeds are pre-rendered from.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CATALOGUE_PAGE_SIZE,
  topicListKey,
  type CatalogueListKey,
  type CataloguePage,
} from '../../contract/catalogue-pages.ts';
import { ManifestSchema, type Manifest } from '../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../contract/thread-card.ts';
import { matchesFilter, type ThreadFilter } from '../../contract/thread-filter.ts';
import { groupByTopic, type CatalogueTopic } from '../../contract/topics.ts';
import { catalogueDir } from './build-env.ts';

/** Topics linked in a page's topic bar: the bar stays the same size at any catalogue size. */
export const TOPIC_NAV_LIMIT = 12;

/** A page or feed per topic: the topic and its newest `limit` cards. */
export type TopicPageProps = {
  topic: CatalogueTopic;
  cards: ThreadCard[];
};

/**
 * What the build reads of a catalogue folder: only the heads of the lists (the first page or pages of
 * All and of each topic) and the manifest, never threads-all.json, which holds every thread (hundreds
 * of megabytes at a million). A folder without pages (the committed sample, which `npm run dev` reads
 * as it is) is read from its threads-all.json: it is small.
 */
export function createCatalogueReader(dir: string) {
  async function readJson(name: string): Promise<unknown> {
    const file = path.resolve(dir, name);
    try {
      return JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new Error(`Cannot read the catalogue file ${file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Validates the cards a page renders; a malformed card fails the build with the file's path. */
  function validated(raw: unknown, name: string): ThreadCard[] {
    const parsed = ThreadCardListSchema.safeParse(raw);
    if (!parsed.success)
      throw new Error(`${dir}/${name} has an invalid card: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  }

  let manifest: Promise<Manifest | null> | null = null;
  const readManifest = () =>
    (manifest ??= readJson('manifest.json').then(
      (raw) => ManifestSchema.safeParse(raw).data ?? null,
      () => null,
    ));

  const pageName = (list: CatalogueListKey, page: number) => `pages/${list}/${page}.json`;
  // The head of All is read once per build (the home page and both feeds ask); a topic's pages are
  // read when its routes ask, and not kept: there can be thousands of topics.
  const cache = new Map<string, Promise<unknown>>();
  const cached = (name: string) => {
    if (!name.startsWith('pages/all/') && name !== 'threads-all.json') return readJson(name);
    let read = cache.get(name);
    if (!read) cache.set(name, (read = readJson(name)));
    return read;
  };

  /** Whether the folder holds the paged catalogue (every export does; the committed sample does not). */
  let paged: Promise<boolean> | null = null;
  const isPaged = () =>
    (paged ??= readFile(path.resolve(dir, pageName('all', 1))).then(
      () => true,
      () => false,
    ));

  /** The sample's path: every card from threads-all.json, grouped by topic once. */
  let whole: Promise<{ cards: unknown[]; topics: ReturnType<typeof groupByTopic> }> | null = null;
  const readWhole = () =>
    (whole ??= cached('threads-all.json').then((raw) => {
      if (!Array.isArray(raw)) throw new Error(`${dir}/threads-all.json must hold a list of thread cards`);
      return { cards: raw, topics: groupByTopic(raw as ThreadCard[]) };
    }));

  /**
   * The first `limit` cards of a list and its total, from as many of its first pages as it takes. A
   * list is its pages' cards one after another: a first page carrying the tail (decision 037) holds
   * more than CATALOGUE_PAGE_SIZE, and only its `total` counts the tail.
   */
  async function readListHead(
    list: CatalogueListKey,
    limit: number,
  ): Promise<{ cards: ThreadCard[]; total: number }> {
    const first = (await cached(pageName(list, 1))) as CataloguePage;
    const cards = validated(first.cards, pageName(list, 1));
    for (let page = 2; cards.length < limit && page <= first.pages; page++) {
      const next = (await cached(pageName(list, page))) as CataloguePage;
      cards.push(...validated(next.cards, pageName(list, page)));
    }
    return { cards: cards.slice(0, limit), total: first.total };
  }

  /** Every topic with approved threads, most threads first, as the manifest lists them. */
  async function readTopics(): Promise<CatalogueTopic[]> {
    const manifest = await readManifest();
    if (!manifest?.topics) throw new Error(`${dir}/manifest.json lists no topics: it is not an export`);
    return manifest.topics;
  }

  const reader = {
    /** The first `limit` cards of All (catalogue order, newest first) and how many there are. */
    async readCatalogueHead(limit = CATALOGUE_PAGE_SIZE): Promise<{ cards: ThreadCard[]; total: number }> {
      if (await isPaged()) return readListHead('all', limit);
      const { cards } = await readWhole();
      return { cards: validated(cards.slice(0, limit), 'threads-all.json'), total: cards.length };
    },

    /** The first page of a filter's list (All, Text, Images) and how many it holds, for its page. */
    async readFilterHead(filter: ThreadFilter): Promise<{ cards: ThreadCard[]; total: number }> {
      if (filter === 'all') return reader.readCatalogueHead();
      if (await isPaged()) return readListHead(filter, CATALOGUE_PAGE_SIZE);
      const { cards } = await readWhole();
      const matching = validated(cards, 'threads-all.json').filter((card) => matchesFilter(card, filter));
      return { cards: matching.slice(0, CATALOGUE_PAGE_SIZE), total: matching.length };
    },

    /** The newest `limit` cards (catalogue order is newest first), for the feeds. */
    async readNewestCards(limit: number): Promise<ThreadCard[]> {
      return (await reader.readCatalogueHead(limit)).cards;
    },

    /** Every topic with its first `limit` cards, most threads first (no page is read for a limit of 0). */
    async readCatalogueTopics(
      limit = CATALOGUE_PAGE_SIZE,
    ): Promise<{ topic: CatalogueTopic; cards: ThreadCard[] }[]> {
      if (!(await isPaged())) {
        const { topics } = await readWhole();
        return topics.map(({ topic, cards }) => ({
          topic,
          cards: validated(cards.slice(0, limit), 'threads-all.json'),
        }));
      }
      const topics = await readTopics();
      return Promise.all(
        topics.map(async (topic) => ({
          topic,
          cards: limit > 0 ? (await readListHead(topicListKey(topic.slug), limit)).cards : [],
        })),
      );
    },

    /** The biggest topics (and `current`, when it is not among them) for a page's topic bar. */
    async readTopicNavigation(current?: string): Promise<{ topics: CatalogueTopic[]; total: number }> {
      const all = (await reader.readCatalogueTopics(0)).map(({ topic }) => topic);
      const topics = all.slice(0, TOPIC_NAV_LIMIT);
      const own = all.find((topic) => topic.slug === current);
      if (own && !topics.includes(own)) topics.push(own);
      return { topics, total: all.length };
    },

    /** A topic's page or feed: the topic and its first `limit` cards; null when no topic has that slug. */
    async readTopicPage(slug: string, limit: number): Promise<TopicPageProps | null> {
      // The sample is in memory already; an export's topic reads its own pages, not every topic's.
      if (!(await isPaged()))
        return (await reader.readCatalogueTopics(limit)).find(({ topic }) => topic.slug === slug) ?? null;
      const topic = (await readTopics()).find((each) => each.slug === slug);
      return topic ? { topic, cards: (await readListHead(topicListKey(slug), limit)).cards } : null;
    },

    /** The manifest, or null when it is missing or malformed (the page then shows no freshness line). */
    readCatalogueManifest: readManifest,

    /**
     * The manifest's dates, version and head, as the island needs them (its topic list and counts stay out
     * of the page's HTML); null when the manifest is missing or malformed (no freshness line then).
     */
    async readBuiltManifest(): Promise<Manifest | null> {
      const manifest = await readManifest();
      if (!manifest) return null;
      const { generatedAt, nextUpdate, version, head } = manifest;
      if (!version) return { generatedAt, nextUpdate };
      // The head says whether the pre-rendered first pages carry a tail (decision 037).
      return head ? { generatedAt, nextUpdate, version, head } : { generatedAt, nextUpdate, version };
    },
  };
  return reader;
}

/** One reader's reads: every page rendered in one pass shares them. */
let build = createCatalogueReader(catalogueDir);

/**
 * Forgets what was read: the renderer (src/renderer/entrypoint.ts) calls it before each pass, since it
 * renders the same pages again, in one process, after the catalogue changed on disk.
 */
export function renewCatalogueReads(): void {
  build = createCatalogueReader(catalogueDir);
}

type Reader = ReturnType<typeof createCatalogueReader>;

export const readCatalogueHead: Reader['readCatalogueHead'] = (limit) => build.readCatalogueHead(limit);
export const readFilterHead: Reader['readFilterHead'] = (filter) => build.readFilterHead(filter);
export const readNewestCards: Reader['readNewestCards'] = (limit) => build.readNewestCards(limit);
export const readCatalogueTopics: Reader['readCatalogueTopics'] = (limit) => build.readCatalogueTopics(limit);
export const readTopicNavigation: Reader['readTopicNavigation'] = (current) =>
  build.readTopicNavigation(current);
export const readTopicPage: Reader['readTopicPage'] = (slug, limit) => build.readTopicPage(slug, limit);
export const readCatalogueManifest: Reader['readCatalogueManifest'] = () => build.readCatalogueManifest();
export const readBuiltManifest: Reader['readBuiltManifest'] = () => build.readBuiltManifest();
