import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  CATALOGUE_PAGE_SIZE,
  pageCount,
  type CatalogueListKey,
  type CataloguePage,
} from '../../../../contract/catalogue-pages.ts';
import { ManifestSchema, type Manifest } from '../../../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../../../contract/thread-card.ts';
import { matchesFilter } from '../../../../contract/thread-filter.ts';
import { topicSlug } from '../../../../contract/topics.ts';
import { PUBLIC_CATALOGUE_FILE } from '../../../../server/publisher/export/catalogue-files.ts';
import {
  exportCatalogue,
  type CatalogueExport,
} from '../../../../server/publisher/export/export-catalogue.ts';
import { EXPORT_STATE_FILE } from '../../../../server/publisher/export/export-state.ts';
import { FOLD_AFTER_MS } from '../../../../server/publisher/export/follow-changes.ts';
import { createThreadsRepository } from '../../../../server/repositories/threads.ts';
import { TEST_SITE } from '../../../site-under-test.ts';
import { CATALOGUE_NOW as now, insertThreads, threadRows } from '../../helpers/approved-threads.ts';
import { catalogueFileNames as listCatalogueFiles, pagesByList } from '../../helpers/catalogue-folder.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// The paged public catalogue exported from approved threads on the worker's database (PGlite, or
// PostgreSQL with DATABASE_URL), at the size of a busy site. The export far beyond it (100,000
// threads, every list paged to its last page) is checked by export-memory.test.ts, on the export it
// runs in bounded memory.

let target: CatalogueExport;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  target = {
    catalogueDir: await mkdtemp(path.join(tmpdir(), 'ct-export-pages-')),
    sampleCatalogueDir: TEST_SITE.catalogueDir,
    refreshIntervalMinutes: 60,
  };
});
afterEach(() => rm(target.catalogueDir, { recursive: true, force: true }));
afterAll(async () => resetDatabase(await testDatabase()));

async function exportNow(at = now): Promise<boolean> {
  const { db } = await testDatabase();
  return exportCatalogue(db, target, at);
}

const readJson = async (name: string) =>
  JSON.parse(await readFile(path.join(target.catalogueDir, name), 'utf8')) as unknown;
const readManifest = async () => ManifestSchema.parse(await readJson('manifest.json'));
const readCards = async (name: string) => ThreadCardListSchema.parse(await readJson(name));
const readPage = async (list: CatalogueListKey, page: number) =>
  (await readJson(`pages/${list}/${page}.json`)) as CataloguePage;

/** Every data file of this test's export (see helpers/catalogue-folder.ts). */
const catalogueFileNames = (options: { copies?: boolean } = {}) =>
  listCatalogueFiles(target.catalogueDir, options);

/** Reads all pages of a list, checking each one's place in the whole; returns their cards in order. */
async function readList(list: CatalogueListKey, total: number, manifest: Manifest): Promise<ThreadCard[]> {
  const pages = pageCount(total);
  const cards: ThreadCard[] = [];
  for (let n = 1; n <= pages; n++) {
    const page = await readPage(list, n);
    expect(page).toMatchObject({ version: manifest.version, list, page: n, pages, total });
    expect(page.cards).toHaveLength(
      n < pages ? CATALOGUE_PAGE_SIZE : total - (pages - 1) * CATALOGUE_PAGE_SIZE,
    );
    cards.push(...ThreadCardListSchema.parse(page.cards));
  }
  return cards;
}

describe('1,000 approved threads', () => {
  test(
    'are paged for All, Text, Images and every topic, as the manifest counts them',
    { tags: ['engine'] },
    async () => {
      await insertThreads(threadRows(1000));
      // Threads not approved stay out of every file.
      await insertThreads(
        threadRows(3, 'pending').map((row, i) => ({
          ...row,
          shortcode: `Q${i}`,
          permalink: `https://www.threads.com/@kit/post/Q${i}`,
          status: i === 2 ? 'rejected' : 'pending',
        })),
      );
      expect(await exportNow()).toBe(true);

      const manifest = await readManifest();
      const all = await readCards('threads-all.json');
      const text = await readCards('threads-text.json');
      const images = await readCards('threads-images.json');
      expect(all).toHaveLength(1000);
      expect(all.some((card) => card.permalink?.includes('/post/Q'))).toBe(false);
      expect(manifest).toMatchObject({
        generatedAt: now.toISOString(),
        counts: { all: 1000, text: text.length, images: images.length },
        pageSize: CATALOGUE_PAGE_SIZE,
      });
      expect(text).toEqual(all.filter((card) => matchesFilter(card, 'text')));
      expect(images).toEqual(all.filter((card) => matchesFilter(card, 'images')));
      expect(text.length).toBeGreaterThan(100);
      expect(images.length).toBeGreaterThan(100);

      // The union of the pages is the whole file, in order.
      expect(await readList('all', 1000, manifest)).toEqual(all);
      expect(await readList('text', text.length, manifest)).toEqual(text);
      expect(await readList('images', images.length, manifest)).toEqual(images);

      const topics = manifest.topics ?? [];
      const slugs = topics.map((topic) => topic.slug);
      expect(slugs).toContain('типографика');
      expect(slugs).toContain('ux-design');
      expect(new Set(slugs).size).toBe(slugs.length);
      // Both spellings are one topic, named as the newest thread (post 89) spells it.
      expect(topics.find((topic) => topic.slug === 'ux-design')?.tag).toBe('ux-design');
      expect(new Set((await readPage('topics/ux-design', 1)).cards.map((card) => card.topic_tag))).toEqual(
        new Set(['ux-design', 'UX Design']),
      );
      for (const topic of topics) {
        const own = await readList(`topics/${topic.slug}`, topic.count, manifest);
        expect(own.every((card) => card.topic_tag && topicSlug(card.topic_tag) === topic.slug)).toBe(true);
        expect(own).toEqual(all.filter((card) => card.topic_tag && topicSlug(card.topic_tag) === topic.slug));
      }
      // Cards without a topic (or with one of emoji only) are on no topic page.
      const withTopic = all.filter((card) => card.topic_tag && topicSlug(card.topic_tag));
      expect(withTopic.length).toBeLessThan(all.length);
      expect(topics.reduce((sum, topic) => sum + topic.count, 0)).toBe(withTopic.length);

      // Nothing else under pages/, and every file public.
      // The export's own state stays private.
      const names = await catalogueFileNames();
      expect(EXPORT_STATE_FILE).not.toMatch(PUBLIC_CATALOGUE_FILE);
      for (const name of names) expect(name).toMatch(PUBLIC_CATALOGUE_FILE);
      expect(names.some((name) => name.startsWith('search/'))).toBe(true);
      const expected = new Map<string, number>([
        ['all', 1000],
        ['text', text.length],
        ['images', images.length],
        ...topics.map((topic): [string, number] => [`topics/${topic.slug}`, topic.count]),
      ]);
      const onDisk = pagesByList(names);
      expect(new Set(onDisk.keys())).toEqual(new Set(expected.keys()));
      for (const [list, count] of expected) {
        expect(onDisk.get(list), list).toEqual(Array.from({ length: pageCount(count) }, (_, i) => i + 1));
      }

      // Unchanged, a second export writes no data file.
      expect(await exportNow(new Date(now.getTime() + 60_000))).toBe(false);
    },
  );

  test('an approved thread newer than all leads its first pages as the tail; a fold makes it a version', async () => {
    const { db } = await testDatabase();
    await insertThreads(threadRows(1000));
    const newest = new Date(now.getTime() - 60_000);
    const [pendingRow] = threadRows(1, 'pending');
    if (!pendingRow) throw new Error('no row');
    const pending = await createThreadsRepository(db).insertIfNew({
      ...pendingRow,
      shortcode: 'NEWTEXT',
      permalink: 'https://www.threads.com/@kit/post/NEWTEXT',
      text: 'A new text thread about kerning.',
      imageUrl: null,
      topicTag: 'Typography',
      postedAt: newest,
    });
    if (!pending) throw new Error('the pending thread was not inserted');

    expect(await exportNow()).toBe(true);
    const before = await readManifest();
    const textBefore = await readPage('text', 1);
    const imagesBefore = await readJson('pages/images/1.json');
    const allSecond = await readJson('pages/all/2.json');
    expect((await readCards('threads-all.json')).map((card) => card.id)).not.toContain(pending.id);

    expect(await createThreadsRepository(db).decide(pending.id, 'approved')).not.toBeNull();
    expect(await exportNow()).toBe(true);
    const after = await readManifest();
    // The pages' version stays the full export's; the tail has a head of its own.
    expect(after.version).toBe(before.version);
    expect(after.head).toMatch(/^[0-9a-f]{16}$/);
    expect(after.counts).toEqual({
      all: (before.counts?.all ?? 0) + 1,
      text: (before.counts?.text ?? 0) + 1,
      images: before.counts?.images,
    });
    const textPage = await readPage('text', 1);
    expect(textPage).toMatchObject({
      version: before.version,
      page: 1,
      pages: textBefore.pages,
      total: after.counts?.text,
      tail: 1,
      head: after.head,
    });
    expect(textPage.cards.map((card) => card.id)).toEqual([
      pending.id,
      ...textBefore.cards.map((card) => card.id),
    ]);
    expect((await readPage('all', 1)).cards[0]?.id).toBe(pending.id);
    expect((await readPage('topics/typography', 1)).cards[0]?.id).toBe(pending.id);
    // Every other page is as the full export wrote it, and the whole files wait for the fold.
    expect(await readJson('pages/images/1.json')).toEqual(imagesBefore);
    expect(await readJson('pages/all/2.json')).toEqual(allSecond);
    expect((await readCards('threads-all.json')).map((card) => card.id)).not.toContain(pending.id);
    expect((await readCards('threads-recent.json'))[0]?.id).toBe(pending.id);
    expect(after.topics?.find((topic) => topic.slug === 'typography')?.count).toBe(
      (before.topics?.find((topic) => topic.slug === 'typography')?.count ?? 0) + 1,
    );

    // An approved image thread, newer still, joins the tail and leads Images.
    const [imageRow] = threadRows(1);
    if (!imageRow) throw new Error('no row');
    await insertThreads([
      {
        ...imageRow,
        shortcode: 'NEWIMAGE',
        permalink: 'https://www.threads.com/@kit/post/NEWIMAGE',
        imageUrl: '/sample/images/1.webp',
        postedAt: new Date(now.getTime() - 30_000),
      },
    ]);
    expect(await exportNow()).toBe(true);
    const third = await readManifest();
    expect(third.head).not.toBe(after.head);
    expect(third.counts?.images).toBe((after.counts?.images ?? 0) + 1);
    const imagesPage = await readPage('images', 1);
    expect(imagesPage).toMatchObject({ tail: 1, head: third.head, total: third.counts?.images });
    expect(imagesPage.cards[0]?.permalink).toBe('https://www.threads.com/@kit/post/NEWIMAGE');
    expect((await readPage('all', 1)).tail).toBe(2);
    expect((await readPage('text', 1)).cards[0]?.id).toBe(pending.id);

    // Past FOLD_AFTER_MS the next export is a full one: a new version, no tail, the whole files caught up.
    expect(await exportNow(new Date(now.getTime() + FOLD_AFTER_MS + 1))).toBe(true);
    const folded = await readManifest();
    expect(folded.version).not.toBe(before.version);
    expect(folded.head).toBeUndefined();
    expect(folded.counts).toEqual(third.counts);
    expect((await readPage('all', 1)).tail).toBeUndefined();
    const all = await readCards('threads-all.json');
    expect(all.slice(0, 2).map((card) => card.permalink)).toEqual([
      'https://www.threads.com/@kit/post/NEWIMAGE',
      'https://www.threads.com/@kit/post/NEWTEXT',
    ]);
    expect(await readList('all', all.length, folded)).toEqual(all);
  });
});
