import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { SEARCH_ENTRY_FILE, type SearchIndexEntry } from '../../../../../contract/search-terms.ts';
import type { ThreadCard } from '../../../../../contract/thread-card.ts';
import { catalogueFiles, STREAMED_FILES } from '../../../../../server/publisher/export/catalogue-files.ts';
import { writeCatalogue } from '../../../../../server/publisher/export/export-catalogue.ts';
import { searchIndexFiles } from '../../../../../server/publisher/export/search-index.ts';
import { buildSampleCards } from '../../../../../scripts/sample/catalogue.ts';
import { createRandom } from '../../../../../server/seeded-random.ts';
import { dates, filesIn, newDir, now } from './catalogue-folder.ts';

// The export streams the catalogue (catalogue-stream.ts); catalogueFiles and searchIndexFiles build
// it in memory, as the export did before. Both must give the same files, byte for byte.

const UNICODE_TEXTS = [
  'Типографика и вёрстка: кернинг важнее шрифта',
  '日本語のタイポグラフィ 組版 ルビ',
  'Café crème, naïve façade, Ærøskøbing — accents fold',
  '𝒜𝓈𝓉𝓇𝒶𝓁 letters 𝒶𝓃𝒹 emoji 🎨🖌️ between words',
  'İstanbul ıı İİ ß straße STRASSE',
  'ελληνικά γράμματα και τυπογραφία',
];

/**
 * A few hundred cards in catalogue order: the sample's, with text and image cards, topics in several
 * spellings and scripts (and none), unicode content, repeated and missing timestamps (the recent
 * file's ties), and one crowded prefix so a search shard must split.
 */
function referenceCards(count = 360): ThreadCard[] {
  const random = createRandom(19);
  const word = () =>
    `de${Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('')}`;
  return buildSampleCards(count, now).map((card, i) => {
    const changed: ThreadCard = { ...card };
    if (i % 7 === 0) changed.content = `${UNICODE_TEXTS[i % UNICODE_TEXTS.length]} ${card.content}`;
    if (i % 5 === 0) changed.content = `${changed.content} ${Array.from({ length: 8 }, word).join(' ')}`;
    if (i % 11 === 0) changed.topic_tag = 'Типографика';
    else if (i % 13 === 0) changed.topic_tag = i % 2 === 0 ? 'UX Design' : 'ux-design';
    else if (i % 17 === 0) changed.topic_tag = '🎨';
    else if (i % 19 === 0) changed.topic_tag = null;
    // Equal times: the recent file keeps the earlier card of a tie first.
    if (i % 23 === 1) changed.timestamp = card.timestamp ?? now.toISOString();
    if (i % 29 === 3) delete changed.timestamp;
    if (i === 40 || i === 41) changed.timestamp = '2026-11-21T09:59:00.000Z';
    return changed;
  });
}

async function expectSameFiles(dir: string, expected: [string, string][]): Promise<void> {
  expect(filesIn(dir)).toEqual(expected.map(([name]) => name).sort());
  for (const [name, body] of expected) {
    expect(await readFile(path.join(dir, name), 'utf8'), name).toBe(body);
  }
}

describe('the streamed export and the in-memory reference', () => {
  test('write byte-identical files: whole files, recent, every page, the search index, the manifest', async () => {
    const cards = referenceCards();
    const reference = catalogueFiles(cards, dates);
    expect(reference.manifest.topics?.map((topic) => topic.slug)).toEqual(
      expect.arrayContaining(['типографика', 'ux-design']),
    );
    const dir = await newDir();
    const { manifest, dataChanged } = await writeCatalogue(dir, cards, dates);
    expect(dataChanged).toBe(true);
    expect(manifest).toEqual(reference.manifest);
    await expectSameFiles(dir, reference.files);
  });

  test('split large search shards the same way (a small split size makes many splits)', async () => {
    const cards = referenceCards(300);
    const dir = await newDir();
    const { manifest } = await writeCatalogue(dir, cards, dates, { splitBytes: 400 });
    const version = manifest.version ?? '';
    const reference = searchIndexFiles(cards, version, { splitBytes: 400 });
    const entry = JSON.parse(new Map(reference).get(SEARCH_ENTRY_FILE) ?? '{}') as SearchIndexEntry;
    // The crowded prefix is split into three-character keys, and so are others.
    const split = entry.shards.map(([key]) => key).filter((key) => Array.from(key).length >= 3);
    expect(split.filter((key) => key.startsWith('de')).length).toBeGreaterThan(5);
    expect(split.some((key) => !key.startsWith('de'))).toBe(true);
    expect(entry.shards.length).toBeGreaterThan(100);
    const searchFiles = filesIn(dir).filter((name) => name.startsWith('search/'));
    expect(searchFiles).toEqual(reference.map(([name]) => name).sort());
    for (const [name, body] of reference) expect(await readFile(path.join(dir, name), 'utf8')).toBe(body);
  });

  test('an empty catalogue matches too', async () => {
    const dir = await newDir();
    await writeCatalogue(dir, [], dates);
    await expectSameFiles(dir, catalogueFiles([], dates).files);
  });

  test('a catalogue that shrinks and grows again matches at every step', async () => {
    const cards = referenceCards(200);
    const dir = await newDir();
    for (const step of [cards, cards.slice(0, 30), cards.slice(5, 190), []]) {
      await writeCatalogue(dir, step, dates);
      await expectSameFiles(dir, catalogueFiles(step, dates).files);
    }
  });
});

describe('the streamed whole files', () => {
  test('have .br and .gz copies that hold the same bytes', async () => {
    const dir = await newDir();
    await writeCatalogue(dir, referenceCards(120), dates);
    for (const name of STREAMED_FILES) {
      const body = await readFile(path.join(dir, name));
      const br = await readFile(path.join(dir, `${name}.br`));
      const gz = await readFile(path.join(dir, `${name}.gz`));
      expect(brotliDecompressSync(br).equals(body), name).toBe(true);
      expect(gunzipSync(gz).equals(body), name).toBe(true);
      expect(br.length).toBeLessThan(body.length);
    }
  });

  test('lose copies that would not be smaller (an empty list), so no copy is ever stale', async () => {
    const dir = await newDir();
    await writeCatalogue(dir, referenceCards(50), dates);
    await writeCatalogue(dir, [], dates);
    const names = filesIn(dir, { copies: true });
    for (const name of STREAMED_FILES) {
      expect(await readFile(path.join(dir, name), 'utf8')).toBe('[]');
      expect(names).not.toContain(`${name}.br`);
      expect(names).not.toContain(`${name}.gz`);
    }
  });

  test('one that did not change is left in place with its copies; one that did is replaced', async () => {
    const dir = await newDir();
    const cards = referenceCards(80);
    await writeCatalogue(dir, cards, dates);
    const inode = async (name: string) => (await stat(path.join(dir, name))).ino;
    const before = {
      text: await inode('threads-text.json'),
      textBr: await inode('threads-text.json.br'),
      all: await inode('threads-all.json'),
    };
    // An image card liked once more: All and Images change, Text does not.
    const index = cards.findIndex((card) => card.image !== null && card.type === 'image');
    const liked = cards.map((card, i) => (i === index ? { ...card, likes: (card.likes ?? 0) + 1 } : card));
    expect((await writeCatalogue(dir, liked, dates)).dataChanged).toBe(true);
    expect(await inode('threads-text.json')).toBe(before.text);
    expect(await inode('threads-text.json.br')).toBe(before.textBr);
    expect(await inode('threads-all.json')).not.toBe(before.all);
    expect(JSON.parse(await readFile(path.join(dir, 'threads-all.json'), 'utf8'))).toEqual(liked);
  });

  test('leftovers of a killed export (temporary files, a search spill) are removed by the next', async () => {
    const dir = await newDir();
    const cards = referenceCards(40);
    await writeCatalogue(dir, cards, dates);
    await writeFile(path.join(dir, 'threads-all.json.0123456789ab.tmp'), '[');
    await mkdir(path.join(dir, '.search-spill-x1'));
    await writeFile(path.join(dir, '.search-spill-x1', '0.txt'), '0\tword\n');
    await writeCatalogue(dir, cards.slice(1), dates);
    expect(
      filesIn(dir, { copies: true }).filter((name) => name.includes('.tmp') || name.includes('spill')),
    ).toEqual([]);
  });
});

describe('stale files', () => {
  test('go with their precompressed copies; the copies of files still wanted stay', async () => {
    const dir = await newDir();
    const cards = referenceCards(100);
    const { manifest } = await writeCatalogue(dir, cards, dates);
    const topic = manifest.topics?.[0]?.slug ?? '';
    const copies = [
      'pages/all/5.json.br',
      'pages/all/5.json.gz',
      'pages/all/1.json.br',
      `pages/topics/${topic}/1.json.gz`,
      'search/index.json.br',
      'search/gone.0123456789.json.br',
    ];
    for (const name of copies) await writeFile(path.join(dir, name), 'copy');

    // 30 cards: All keeps two pages; the search index is written anew.
    const fewer = cards.filter((card) => card.topic_tag && manifest.topics?.[0]?.tag === card.topic_tag);
    await writeCatalogue(dir, fewer.slice(0, 30), dates);
    const names = filesIn(dir, { copies: true });
    expect(names).not.toContain('pages/all/5.json');
    expect(names).not.toContain('pages/all/5.json.br');
    expect(names).not.toContain('pages/all/5.json.gz');
    expect(names).not.toContain('search/gone.0123456789.json.br');
    expect(names).toContain('pages/all/1.json.br');
    expect(names).toContain(`pages/topics/${topic}/1.json.gz`);
    expect(names).toContain('search/index.json.br');
  });
});
