import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { CATALOGUE_PAGE_SIZE, pageCount, topicListKey } from '../../../contract/catalogue-pages.ts';
import type { Manifest } from '../../../contract/manifest.ts';
import { matchesFilter } from '../../../contract/thread-filter.ts';
import { topicSlug, type CatalogueTopic } from '../../../contract/topics.ts';
import { writeIfChanged } from './atomic-file.ts';
import type { CardSource } from './card-source.ts';
import {
  catalogueVersionHash,
  MANIFEST_FILE,
  manifestBody,
  RECENT_COUNT,
  versionOf,
  type CatalogueDates,
} from './catalogue-files.ts';
import { NewestCards } from './newest-cards.ts';
import { PageList, WritePool } from './page-lists.ts';
import { SearchIndexSpill, SPILL_PREFIX } from './search-spill.ts';
import { removeStaleFiles } from './stale-files.ts';
import { settleAll, StreamedFile } from './streamed-file.ts';

/** Exports started again when the cards changed between the two passes, before giving up. */
const ATTEMPTS = 4;

/** Topic tags whose slug is remembered (tags repeat); past this the memo starts again. */
const SLUG_MEMO_MAX = 50_000;

/** What the first pass learns: everything the manifest and the pages' heads need, and no card. */
export interface CatalogueSurvey {
  version: string;
  counts: { all: number; text: number; images: number };
  /** Most threads first, as groupByTopic orders them. */
  topics: CatalogueTopic[];
}

function slugMemo(): (tag: string | null | undefined) => string | null {
  const memo = new Map<string, string | null>();
  return (tag) => {
    if (!tag) return null;
    let slug = memo.get(tag);
    if (slug === undefined) {
      if (memo.size > SLUG_MEMO_MAX) memo.clear();
      slug = topicSlug(tag);
      memo.set(tag, slug);
    }
    return slug;
  };
}

/**
 * Pass one: reads the cards once, keeping only counts per list and the version hash (fed the bytes
 * of threads-all.json as they would be written).
 */
export async function surveyCatalogue(source: CardSource): Promise<CatalogueSurvey> {
  const hash = catalogueVersionHash().update('[');
  const counts = { all: 0, text: 0, images: 0 };
  const topics = new Map<string, CatalogueTopic>();
  const slugOf = slugMemo();
  for await (const batch of source()) {
    for (const card of batch) {
      hash.update(counts.all === 0 ? '' : ',').update(JSON.stringify(card));
      counts.all += 1;
      if (matchesFilter(card, 'text')) counts.text += 1;
      if (matchesFilter(card, 'images')) counts.images += 1;
      const slug = slugOf(card.topic_tag);
      if (!slug || !card.topic_tag) continue;
      // Named as the first card in catalogue order spells it, as groupByTopic does.
      const topic = topics.get(slug) ?? { tag: card.topic_tag, slug, count: 0 };
      topic.count += 1;
      topics.set(slug, topic);
    }
  }
  return {
    version: versionOf(hash.update(']')),
    counts,
    topics: [...topics.values()].sort((a, b) => b.count - a.count || a.slug.localeCompare(b.slug)),
  };
}

/** The spec's three whole files, streamed. */
type WholeFiles = Record<'all' | 'text' | 'images', StreamedFile>;

/**
 * Pass two: reads the cards again and writes every data file but the manifest: the whole files,
 * each list's pages, threads-recent.json and the search index. Returns null, leaving the whole files
 * as they were, when the cards were not those `survey` counted (they changed in between).
 */
async function writeFiles(
  dir: string,
  source: CardSource,
  survey: CatalogueSurvey,
  options: { splitBytes?: number | undefined },
): Promise<{ changed: boolean; search: Set<string> } | null> {
  const { version } = survey;
  const lists = {
    all: new PageList('all', survey.counts.all, version),
    text: new PageList('text', survey.counts.text, version),
    images: new PageList('images', survey.counts.images, version),
  };
  const topicLists = new Map(
    survey.topics.map((topic) => [topic.slug, new PageList(topicListKey(topic.slug), topic.count, version)]),
  );
  await Promise.all(
    [...Object.values(lists), ...topicLists.values()].map((list) =>
      mkdir(path.join(dir, 'pages', list.list), { recursive: true }),
    ),
  );
  await mkdir(path.join(dir, 'search'), { recursive: true });

  const whole: WholeFiles = {
    all: await StreamedFile.create(path.join(dir, 'threads-all.json')),
    text: await StreamedFile.create(path.join(dir, 'threads-text.json')),
    images: await StreamedFile.create(path.join(dir, 'threads-images.json')),
  };
  const spill = await SearchIndexSpill.create(dir);
  const pool = new WritePool(dir);
  const recent = new NewestCards(RECENT_COUNT);
  const hash = catalogueVersionHash().update('[');
  const written = { all: 0, text: 0, images: 0 };
  const slugOf = slugMemo();
  const append = async (file: keyof WholeFiles, json: string) => {
    await whole[file].write(`${written[file] === 0 ? '[' : ','}${json}`);
    written[file] += 1;
  };
  let finishing: Promise<boolean[]> | undefined;
  try {
    for await (const batch of source()) {
      for (const card of batch) {
        const json = JSON.stringify(card);
        const position = written.all;
        hash.update(position === 0 ? '' : ',').update(json);
        await append('all', json);
        await lists.all.add(json, pool);
        for (const filter of ['text', 'images'] as const) {
          if (!matchesFilter(card, filter)) continue;
          await append(filter, json);
          await lists[filter].add(json, pool);
        }
        const topic = topicLists.get(slugOf(card.topic_tag) ?? '');
        if (topic) await topic.add(json, pool);
        recent.add(card.timestamp, json);
        await spill.add(card, position);
      }
    }
    if (versionOf(hash.update(']')) !== version) {
      await pool.drain();
      await Promise.all([...Object.values(whole).map((file) => file.discard()), spill.discard()]);
      return null;
    }
    for (const file of ['all', 'text', 'images'] as const)
      await whole[file].write(written[file] === 0 ? '[]' : ']');
    // The whole files compress on the thread pool while this thread builds the search shards: started
    // first, awaited last. Settled before the catch discards anything, so nothing is still writing.
    finishing = settleAll(Object.values(whole).map((file) => file.finish()));
    const rest = (async () => {
      for (const list of [...Object.values(lists), ...topicLists.values()]) await list.finish(pool);
      await pool.write('threads-recent.json', recent.json());
      const names = await spill.finish(version, (name, body) => pool.write(name, body), options);
      await pool.drain();
      return new Set(names);
    })();
    const [files, search] = await Promise.allSettled([finishing, rest]);
    if (files.status === 'rejected') throw files.reason;
    if (search.status === 'rejected') throw search.reason;
    return { changed: files.value.some(Boolean) || pool.changed, search: search.value };
  } catch (error) {
    await finishing?.catch(() => undefined);
    await Promise.all([...Object.values(whole).map((file) => file.discard()), spill.discard()]);
    throw error;
  }
}

/**
 * Removes what a killed export left at the top of the folder: spill folders and temporary files.
 * One export writes a folder at a time (the publisher coalesces its runs), so anything temporary
 * found when one starts is a leftover.
 */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith(SPILL_PREFIX) || /^threads-\w+\.json\.[0-9a-f]{12}\.tmp(\.br|\.gz)?$/.test(name))
      await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Writes the public catalogue of `source`'s cards into `dir` in bounded memory: a first pass counts
 * the lists and computes the version; when the manifest on disk already has that version only its
 * dates are written; else a second pass streams every file (each renamed into place, and only when
 * its content changed), stale pages and search files are removed, and the manifest goes last, so a
 * manifest on disk always describes files that are already complete. `splitBytes` is for tests.
 */
export async function streamCatalogue(
  dir: string,
  source: CardSource,
  dates: CatalogueDates,
  onDisk: Manifest | null,
  { splitBytes }: { splitBytes?: number | undefined } = {},
): Promise<{ manifest: Manifest; dataChanged: boolean }> {
  const dated = {
    generatedAt: dates.generatedAt.toISOString(),
    nextUpdate: dates.nextUpdate.toISOString(),
  };
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const survey = await surveyCatalogue(source);
    // The common case (the 5-minute publish, nothing approved since): the version on disk says the
    // files are already these cards', so only the manifest's dates may need writing.
    // Not over a tail (decision 037): its first pages hold cards the version does not count.
    if (onDisk?.version && onDisk.version === survey.version && !onDisk.head) {
      const manifest = { ...onDisk, ...dated };
      await writeIfChanged(path.join(dir, MANIFEST_FILE), manifestBody(manifest));
      return { manifest, dataChanged: false };
    }
    await mkdir(dir, { recursive: true });
    await removeLeftovers(dir);
    const written = await writeFiles(dir, source, survey, { splitBytes });
    if (!written) continue;
    const pages = new Map<string, number>([
      ['all', pageCount(survey.counts.all)],
      ['text', pageCount(survey.counts.text)],
      ['images', pageCount(survey.counts.images)],
      ...survey.topics.map(({ slug, count }): [string, number] => [topicListKey(slug), pageCount(count)]),
    ]);
    const removed = await removeStaleFiles(dir, { pages, search: written.search });
    const manifest: Manifest = {
      ...dated,
      counts: survey.counts,
      version: survey.version,
      pageSize: CATALOGUE_PAGE_SIZE,
      topics: survey.topics,
    };
    await writeIfChanged(path.join(dir, MANIFEST_FILE), manifestBody(manifest));
    return { manifest, dataChanged: written.changed || removed };
  }
  throw new Error(
    `The approved threads kept changing during ${ATTEMPTS} exports; the next publish tries again`,
  );
}
