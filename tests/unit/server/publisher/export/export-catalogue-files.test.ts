import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { CATALOGUE_PAGE_SIZE } from '../../../../../contract/catalogue-pages.ts';
import { ThreadCardListSchema } from '../../../../../contract/thread-card.ts';
import { matchesFilter } from '../../../../../contract/thread-filter.ts';
import {
  catalogueFiles,
  PUBLIC_CATALOGUE_FILE,
  RECENT_COUNT,
  STREAMED_FILES,
  WHOLE_FILES,
} from '../../../../../server/publisher/export/catalogue-files.ts';
import { writeCatalogue } from '../../../../../server/publisher/export/export-catalogue.ts';
import { buildSampleCards } from '../../../../../scripts/sample/catalogue.ts';
import {
  dates,
  filesIn,
  newDir,
  now,
  read,
  readList,
  readManifest,
  readPage,
  withTopic,
  log,
} from './catalogue-folder.ts';

// Records every write into catalogue-folder.ts's `log`.
vi.mock('../../../../../server/publisher/export/atomic-file.ts', async (importOriginal) =>
  (await import('./catalogue-folder.ts')).recordingAtomicFile(await importOriginal()),
);

describe('the spec files', () => {
  test('are written whole, split by the filter rule, with a manifest dated and counted', async () => {
    const dir = await newDir();
    const cards = buildSampleCards(60, now);
    const { manifest, dataChanged } = await writeCatalogue(dir, cards, dates);
    expect(dataChanged).toBe(true);

    expect((await readdir(dir)).filter((name) => !/\.(br|gz)$/.test(name)).sort()).toEqual([
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
    // What the exporter reported as written, and the whole files it streamed, is exactly what is there.
    expect(
      [
        ...log.written.map((file) => path.relative(dir, file).split(path.sep).join('/')),
        ...STREAMED_FILES,
      ].sort(),
    ).toEqual(names);
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
