import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import type { CataloguePage } from '../../../../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../../../../contract/thread-card.ts';
import { catalogueFiles } from '../../../../../server/publisher/export/catalogue-files.ts';
import { writeCatalogue } from '../../../../../server/publisher/export/export-catalogue.ts';
import { buildSampleCards } from '../../../../../scripts/sample/catalogue.ts';
import {
  dates,
  filesIn,
  inodes,
  later,
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
      // The manifest is written again, and its precompressed copies with it.
      if (/^manifest\.json(\.br|\.gz)?$/.test(name)) expect(inode, name).not.toBe(before.get(name));
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
