// Build-time only: reads the public catalogue that the home page, topic pages and feeds are pre-rendered from.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CATALOGUE_PAGE_SIZE } from '../../contract/catalogue-pages.ts';
import { ManifestSchema, type Manifest } from '../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../contract/thread-card.ts';
import { groupByTopic, type CatalogueTopic } from '../../contract/topics.ts';
import { catalogueDir } from './build-env.ts';

async function readJson(name: string): Promise<unknown> {
  const file = path.resolve(catalogueDir, name);
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the catalogue file ${file}: ${(error as Error).message}`, { cause: error });
  }
}

let all: Promise<unknown[]> | null = null;
let topicGroups: Promise<ReturnType<typeof groupByTopic>> | null = null;

/** threads-all.json, read once per build (every page that needs it shares the parse). */
function readAll(): Promise<unknown[]> {
  all ??= readJson('threads-all.json').then((raw) => {
    if (!Array.isArray(raw))
      throw new Error(`${catalogueDir}/threads-all.json must hold a list of thread cards`);
    return raw;
  });
  return all;
}

/**
 * Validates the cards a page renders; a malformed card fails the build with the file's path. Only
 * what is rendered is validated in full: the whole file can hold 100,000 cards.
 */
function validated(raw: unknown[]): ThreadCard[] {
  const parsed = ThreadCardListSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${catalogueDir}/threads-all.json has an invalid card: ${parsed.error.issues[0]?.message}`,
    );
  }
  return parsed.data;
}

/** The first `limit` cards of threads-all.json and the total. */
export async function readCatalogueHead(
  limit = CATALOGUE_PAGE_SIZE,
): Promise<{ cards: ThreadCard[]; total: number }> {
  const raw = await readAll();
  return { cards: validated(raw.slice(0, limit)), total: raw.length };
}

/** The newest `limit` cards (catalogue order is newest first), for the feeds. */
export async function readNewestCards(limit: number): Promise<ThreadCard[]> {
  return (await readCatalogueHead(limit)).cards;
}

/** Every topic with its first `limit` cards and its total, most threads first. */
export async function readCatalogueTopics(
  limit = CATALOGUE_PAGE_SIZE,
): Promise<{ topic: CatalogueTopic; cards: ThreadCard[] }[]> {
  // Grouped once per build (every topic page and feed asks); grouping reads only the tag, so the
  // whole list need not be validated first.
  topicGroups ??= readAll().then((raw) => groupByTopic(raw as ThreadCard[]));
  const groups = await topicGroups;
  return groups.map(({ topic, cards }) => ({ topic, cards: validated(cards.slice(0, limit)) }));
}

/** Topics linked in a page's topic bar: the bar stays the same size at any catalogue size. */
export const TOPIC_NAV_LIMIT = 12;

/** The biggest topics (and `current`, when it is not among them) for a page's topic bar. */
export async function readTopicNavigation(
  current?: string,
): Promise<{ topics: CatalogueTopic[]; total: number }> {
  const all = (await readCatalogueTopics(0)).map(({ topic }) => topic);
  const topics = all.slice(0, TOPIC_NAV_LIMIT);
  const own = all.find((topic) => topic.slug === current);
  if (own && !topics.includes(own)) topics.push(own);
  return { topics, total: all.length };
}

/**
 * The manifest's dates and version, as the island needs them (its topic list and counts stay out of
 * the page's HTML); null when the manifest is missing or malformed (no freshness line then).
 */
export async function readBuiltManifest(): Promise<Manifest | null> {
  const manifest = await readCatalogueManifest();
  if (!manifest) return null;
  const { generatedAt, nextUpdate, version } = manifest;
  return version ? { generatedAt, nextUpdate, version } : { generatedAt, nextUpdate };
}

/** A page or feed per topic: the topic and its newest `limit` cards. */
export type TopicPageProps = {
  topic: CatalogueTopic;
  cards: ThreadCard[];
};

/** `getStaticPaths` of the routes under /topics/{slug}: one per topic with approved threads. */
export async function topicStaticPaths(
  limit: number,
): Promise<{ params: { slug: string }; props: TopicPageProps }[]> {
  return (await readCatalogueTopics(limit)).map(({ topic, cards }) => ({
    params: { slug: topic.slug },
    props: { topic, cards },
  }));
}

/** The manifest, or null when it is missing or malformed (the page then shows no freshness line). */
export async function readCatalogueManifest(): Promise<Manifest | null> {
  try {
    return ManifestSchema.parse(await readJson('manifest.json'));
  } catch {
    return null;
  }
}
