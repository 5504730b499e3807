import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { CATALOGUE_PAGE_SIZE, pageCount, type CataloguePage } from '../../../../contract/catalogue-pages.ts';
import { ManifestSchema, type Manifest } from '../../../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../../../contract/thread-card.ts';
import { matchesFilter } from '../../../../contract/thread-filter.ts';
import { topicSlug } from '../../../../contract/topics.ts';
import type * as AtomicFile from '../../../../server/jobs/atomic-file.ts';
import {
  catalogueFiles,
  PUBLIC_CATALOGUE_FILE,
  RECENT_COUNT,
  WHOLE_FILES,
} from '../../../../server/jobs/catalogue-files.ts';
import { catalogueDatesFrom, writeCatalogue } from '../../../../server/jobs/export-catalogue.ts';
import { buildSampleCards } from '../../../../scripts/sample/catalogue.ts';

/** Every file the exporter wrote, in order, and what the folder held when the manifest was written. */
const log = vi.hoisted(() => ({ written: [] as string[], beforeManifest: null as string[] | null }));

/** Lists every file under `dir`, relative and with forward slashes. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

vi.mock('../../../../server/jobs/atomic-file.ts', async (importOriginal) => {
  const original = await importOriginal<typeof AtomicFile>();
  return {
    ...original,
    writeIfChanged: async (file: string, body: string) => {
      if (path.basename(file) === 'manifest.json') log.beforeManifest = filesIn(path.dirname(file));
      const wrote = await original.writeIfChanged(file, body);
      if (wrote) log.written.push(file);
      return wrote;
    },
  };
});

beforeEach(() => {
  log.written = [];
  log.beforeManifest = null;
});

const now = new Date('2026-11-21T10:00:00.000Z');
const dates = catalogueDatesFrom(now, 90);
const later = catalogueDatesFrom(new Date(now.getTime() + 3_600_000), 90);

const newDir = () => mkdtemp(path.join(tmpdir(), 'catalogue-'));
const read = async (dir: string, name: string) =>
  JSON.parse(await readFile(path.join(dir, name), 'utf8')) as unknown;
const readManifest = async (dir: string) => ManifestSchema.parse(await read(dir, 'manifest.json'));
const readPage = async (dir: string, list: string, page: number) =>
  (await read(dir, `pages/${list}/${page}.json`)) as CataloguePage;

/** Reads every page of a list, checking each one's place in the whole; returns their cards in order. */
async function readList(dir: string, list: string, manifest: Manifest): Promise<ThreadCard[]> {
  const first = await readPage(dir, list, 1);
  const cards: ThreadCard[] = [];
  for (let n = 1; n <= first.pages; n++) {
    const page = await readPage(dir, list, n);
    expect(page).toMatchObject({ version: manifest.version, list, page: n, pages: first.pages });
    expect(page.total).toBe(first.total);
    expect(page.cards.length).toBe(n < first.pages ? CATALOGUE_PAGE_SIZE : first.total - cards.length);
    cards.push(...ThreadCardListSchema.parse(page.cards));
  }
  expect(first.pages).toBe(pageCount(first.total));
  expect(cards).toHaveLength(first.total);
  // No page past the last one.
  await expect(stat(path.join(dir, `pages/${list}/${first.pages + 1}.json`))).rejects.toThrow();
  return cards;
}

/** Inode per file: a file written again (renamed into place) gets a new one. */
async function inodes(dir: string): Promise<Map<string, number>> {
  const entries = await Promise.all(
    filesIn(dir).map(async (name) => [name, (await stat(path.join(dir, name))).ino] as const),
  );
  return new Map(entries);
}

function withTopic(cards: ThreadCard[], slug: string): ThreadCard[] {
  return cards.filter((card) => card.topic_tag && topicSlug(card.topic_tag) === slug);
}

describe('the spec files', () => {
  test('are written whole, split by the filter rule, with a manifest dated and counted', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(60, now);
    const { manifest, dataChanged } = await writeCatalogue(dir, cards, dates);
    expect(dataChanged).toBe(true);

    expect((await readdir(dir)).sort()).toEqual([
      'manifest.json',
      'pages',
      'search',
      'threads-all.json',
      'threads-images.json',
      'threads-recent.json',
      'threads-text.json',
    ]);
    const all = ThreadCardListSchema.parse(await read(dir, 'threads-all.json'));
    const text = ThreadCardListSchema.parse(await read(dir, 'threads-text.json'));
    const images = ThreadCardListSchema.parse(await read(dir, 'threads-images.json'));
    expect(all).toEqual(cards);
    expect(text).toEqual(cards.filter((card) => card.image === null));
    expect(images).toEqual(cards.filter((card) => card.image !== null));
    expect(text.length).toBeGreaterThan(0);
    expect(images.length).toBeGreaterThan(0);

    expect(await readManifest(dir)).toEqual(manifest);
    expect(manifest).toMatchObject({
      generatedAt: '2026-11-21T10:00:00.000Z',
      nextUpdate: '2026-11-21T11:30:00.000Z',
      counts: { all: 60, text: text.length, images: images.length },
      pageSize: CATALOGUE_PAGE_SIZE,
    });
    expect(manifest.version).toMatch(/^[0-9a-f]{16}$/);
  });

  test('threads-recent.json holds the newest cards first, whatever the input order', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(40, now).reverse();
    await writeCatalogue(dir, cards, dates);
    const recent = ThreadCardListSchema.parse(await read(dir, 'threads-recent.json'));
    expect(recent).toHaveLength(RECENT_COUNT);
    const newest = [...cards]
      .sort((a, b) => Date.parse(b.timestamp ?? '') - Date.parse(a.timestamp ?? ''))
      .slice(0, RECENT_COUNT);
    expect(recent).toEqual(newest);
  });

  test('an empty catalogue has empty files, one empty page per filter and no topics', async () => {
    const dir = await newDir();
    const { manifest } = await writeCatalogue(dir, [], dates);
    for (const name of WHOLE_FILES) expect(await read(dir, name)).toEqual([]);
    expect(manifest).toMatchObject({ counts: { all: 0, text: 0, images: 0 }, topics: [] });
    for (const list of ['all', 'text', 'images']) {
      expect(await readPage(dir, list, 1)).toEqual({
        version: manifest.version,
        list,
        page: 1,
        pages: 1,
        total: 0,
        cards: [],
      });
    }
    expect(filesIn(dir).filter((name) => name.startsWith('pages/topics/'))).toEqual([]);
    expect(filesIn(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the pages', () => {
  test('split All, Text, Images and every topic into pages that add up to the manifest', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(130, now);
    const { manifest } = await writeCatalogue(dir, cards, dates);

    const all = await readList(dir, 'all', manifest);
    const text = await readList(dir, 'text', manifest);
    const images = await readList(dir, 'images', manifest);
    expect(all).toEqual(cards);
    expect(text).toEqual(cards.filter((card) => matchesFilter(card, 'text')));
    expect(images).toEqual(cards.filter((card) => matchesFilter(card, 'images')));
    expect([all.length, text.length, images.length]).toEqual([
      manifest.counts?.all,
      manifest.counts?.text,
      manifest.counts?.images,
    ]);
    expect(filesIn(dir).filter((name) => name.startsWith('pages/all/'))).toHaveLength(6);

    const topics = manifest.topics ?? [];
    expect(topics.length).toBeGreaterThan(1);
    expect(topics.map((topic) => topic.count)).toEqual(
      topics.map((topic) => topic.count).sort((a, b) => b - a),
    );
    for (const topic of topics) {
      const own = await readList(dir, `topics/${topic.slug}`, manifest);
      expect(own).toEqual(withTopic(cards, topic.slug));
      expect(own).toHaveLength(topic.count);
    }
    // Every sample card has a topic, so the topics share out the whole catalogue.
    expect(topics.reduce((sum, topic) => sum + topic.count, 0)).toBe(cards.length);
    const topicFolders = new Set(
      filesIn(dir)
        .filter((name) => name.startsWith('pages/topics/'))
        .map((name) => name.split('/')[2]),
    );
    expect(topicFolders).toEqual(new Set(topics.map((topic) => topic.slug)));
  });

  test('a topic with letters beyond ASCII gets its folder under its slug', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(5, now).map((card, i) =>
      i < 2 ? { ...card, topic_tag: 'Типографика' } : card,
    );
    const { manifest } = await writeCatalogue(dir, cards, dates);
    expect(manifest.topics).toContainEqual({ tag: 'Типографика', slug: 'типографика', count: 2 });
    const page = await readPage(dir, 'topics/типографика', 1);
    expect(page.cards.map((card) => card.id)).toEqual([cards[0]?.id, cards[1]?.id]);
    expect('pages/topics/типографика/1.json').toMatch(PUBLIC_CATALOGUE_FILE);
  });

  test('every file written is public, search files included, and the folder holds nothing else', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(80, now);
    await writeCatalogue(dir, cards, dates);
    const names = filesIn(dir);
    for (const name of names) expect(name).toMatch(PUBLIC_CATALOGUE_FILE);
    expect(names.filter((name) => name.startsWith('search/')).length).toBeGreaterThan(0);
    expect(names).toEqual(
      catalogueFiles(cards, dates)
        .files.map(([name]) => name)
        .sort(),
    );
    // What the exporter reported as written is exactly what is there.
    expect(log.written.map((file) => path.relative(dir, file).split(path.sep).join('/')).sort()).toEqual(
      names,
    );
  });
});

describe('the manifest', () => {
  test('is written last, when every file it describes is complete', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(70, now);
    await writeCatalogue(dir, cards, dates);
    expect(path.basename(log.written.at(-1) ?? '')).toBe('manifest.json');
    const others = catalogueFiles(cards, dates)
      .files.map(([name]) => name)
      .filter((name) => name !== 'manifest.json')
      .sort();
    expect(log.beforeManifest).toEqual(others);
  });

  test('is written last after a shrink too, when the stale pages are already gone', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(70, now);
    await writeCatalogue(dir, cards, dates);
    const fewer = cards.slice(0, 10);
    await writeCatalogue(dir, fewer, dates);
    // The old manifest is still there (it is replaced in one rename); everything else is the new catalogue.
    expect(log.beforeManifest).toEqual(
      catalogueFiles(fewer, dates)
        .files.map(([name]) => name)
        .sort(),
    );
    expect(log.beforeManifest).not.toContain('pages/all/3.json');
  });
});

describe('the version', () => {
  test('is the same for equal cards, whatever the dates', async () => {
    const cards = buildSampleCards(50, now);
    const first = await writeCatalogue(await newDir(), cards, dates);
    const second = await writeCatalogue(await newDir(), structuredClone(cards), later);
    expect(second.manifest.version).toBe(first.manifest.version);
  });

  test.each<[string, (cards: ThreadCard[]) => ThreadCard[]]>([
    ['one card more', (cards) => [...cards, ...buildSampleCards(51, now).slice(50)]],
    ['one card fewer', (cards) => cards.slice(1)],
    [
      'one card liked more',
      (cards) => cards.map((c, i) => (i === 7 ? { ...c, likes: (c.likes ?? 0) + 1 } : c)),
    ],
    [
      "one text card's content",
      (cards) => {
        const index = cards.findIndex((card) => card.image === null);
        return cards.map((c, i) => (i === index ? { ...c, content: `${c.content} (edited)` } : c));
      },
    ],
    ['one card’s topic', (cards) => cards.map((c, i) => (i === 3 ? { ...c, topic_tag: 'Motion' } : c))],
    ['the order', (cards) => [cards[1], cards[0], ...cards.slice(2)].filter((c) => c !== undefined)],
  ])('changes with %s, on every page', async (_, change) => {
    const cards = buildSampleCards(50, now);
    const dir = await newDir();
    const before = await writeCatalogue(dir, cards, dates);
    const changed = change(cards);
    expect(changed).not.toEqual(cards);
    const after = await writeCatalogue(dir, changed, dates);
    expect(after.dataChanged).toBe(true);
    expect(after.manifest.version).not.toBe(before.manifest.version);
    expect((await readManifest(dir)).version).toBe(after.manifest.version);
    // Every page, even those whose cards are the same, carries the new version.
    const pages = filesIn(dir).filter((name) => name.startsWith('pages/'));
    expect(pages.length).toBeGreaterThan(5);
    for (const name of pages) {
      expect(((await read(dir, name)) as CataloguePage).version).toBe(after.manifest.version);
    }
  });
});

describe('writing again', () => {
  test('the same cards with new dates change only the manifest', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(60, now);
    const first = await writeCatalogue(dir, cards, dates);
    const before = await inodes(dir);
    log.written = [];

    const again = await writeCatalogue(dir, cards, later);
    expect(again.dataChanged).toBe(false);
    expect(log.written.map((file) => path.basename(file))).toEqual(['manifest.json']);
    const after = await inodes(dir);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [name, inode] of after) {
      if (name === 'manifest.json') expect(inode).not.toBe(before.get(name));
      else expect(inode, name).toBe(before.get(name));
    }
    const manifest = await readManifest(dir);
    expect(manifest).toEqual({
      ...first.manifest,
      generatedAt: later.generatedAt.toISOString(),
      nextUpdate: later.nextUpdate.toISOString(),
    });
  });

  test('the same cards and dates write nothing at all', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(30, now);
    await writeCatalogue(dir, cards, dates);
    log.written = [];
    expect((await writeCatalogue(dir, cards, dates)).dataChanged).toBe(false);
    expect(log.written).toEqual([]);
  });

  test('a smaller catalogue deletes the pages and topics it no longer has, and reports the change', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(100, now);
    const big = await writeCatalogue(dir, cards, dates);
    const kept = big.manifest.topics?.[0]?.slug ?? '';
    const gone = big.manifest.topics?.at(-1)?.slug ?? '';
    expect(gone).not.toBe(kept);
    expect(filesIn(dir)).toContain('pages/all/5.json');
    expect(filesIn(dir)).toContain(`pages/topics/${gone}/1.json`);

    const fewer = withTopic(cards, kept).slice(0, 30);
    const small = await writeCatalogue(dir, fewer, dates);
    expect(small.dataChanged).toBe(true);
    expect(small.manifest.topics).toEqual([{ tag: expect.any(String), slug: kept, count: 30 }]);
    const names = filesIn(dir);
    expect(names.filter((name) => name.startsWith('pages/all/'))).toEqual([
      'pages/all/1.json',
      'pages/all/2.json',
    ]);
    expect(names.filter((name) => name.startsWith('pages/topics/'))).toEqual([
      `pages/topics/${kept}/1.json`,
      `pages/topics/${kept}/2.json`,
    ]);
    // The gone topic's folder goes too, not just its files.
    expect(await readdir(path.join(dir, 'pages/topics'))).toEqual([kept]);
    expect(names).toEqual(
      catalogueFiles(fewer, dates)
        .files.map(([name]) => name)
        .sort(),
    );
    expect(await readList(dir, 'all', small.manifest)).toEqual(fewer);
  });

  test('stray files in the derived folders go with the next change of the catalogue; other files stay', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(30, now);
    await writeCatalogue(dir, cards, dates);
    await mkdir(path.join(dir, 'pages/topics/old-topic'), { recursive: true });
    await writeFile(path.join(dir, 'pages/topics/old-topic/1.json'), '{}');
    await writeFile(path.join(dir, 'pages/all/9.json'), '{}');
    await writeFile(path.join(dir, 'search/stale.json'), '{}');
    await writeFile(path.join(dir, 'private.txt'), 'kept');

    // Unchanged cards: the version on disk vouches for the files, nothing is listed or rewritten.
    expect((await writeCatalogue(dir, cards, dates)).dataChanged).toBe(false);
    expect(filesIn(dir)).toContain('search/stale.json');

    const changed = cards.slice(1);
    const again = await writeCatalogue(dir, changed, dates);
    expect(again.dataChanged).toBe(true);
    const names = filesIn(dir);
    expect(names).not.toContain('pages/topics/old-topic/1.json');
    expect(names).not.toContain('pages/all/9.json');
    expect(names).not.toContain('search/stale.json');
    expect(names).toContain('private.txt');
    expect(names.filter((name) => name !== 'private.txt')).toEqual(
      catalogueFiles(changed, dates)
        .files.map(([name]) => name)
        .sort(),
    );
    expect((await writeCatalogue(dir, changed, dates)).dataChanged).toBe(false);
  });

  test('a changed card is reported and written through', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(12, now);
    await writeCatalogue(dir, cards, dates);
    const changed = await writeCatalogue(dir, cards.slice(1), later);
    expect(changed.dataChanged).toBe(true);
    expect(await read(dir, 'threads-all.json')).toEqual(cards.slice(1));
    expect((await readPage(dir, 'all', 1)).cards).toEqual(cards.slice(1));
    expect(filesIn(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
