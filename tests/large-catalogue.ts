/**
 * The catalogue of the 'catalogue' browser tests: 1,000 synthetic threads (42 pages of 24), so
 * paging, search and topics are walked at a size where they matter. One thread far down the list
 * carries words no other has, for the search test. `node tests/large-catalogue.ts DIR` writes it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildSampleCards } from '../scripts/sample/catalogue.ts';
import { catalogueFiles } from '../server/publisher/export/catalogue-files.ts';

export const LARGE_CATALOGUE = {
  count: 1000,
  /** 0-based position of the thread only a search finds quickly: on page 40 of All. */
  needlePosition: 24 * 39 + 5,
  needleText: 'Zeppelin kerning: the airship poster taught me more about optical spacing than any book.',
} as const;

/** The cards, newest first, the needle among them (`npm run bench` also asks for 100,000). */
export function largeCatalogueCards(count: number = LARGE_CATALOGUE.count) {
  const cards = buildSampleCards(count, new Date('2026-11-20T12:00:00.000Z'), 11);
  const needle = cards[LARGE_CATALOGUE.needlePosition];
  if (!needle) throw new Error('the large catalogue is too small for its needle');
  cards[LARGE_CATALOGUE.needlePosition] = {
    ...needle,
    content: LARGE_CATALOGUE.needleText,
    permalink: 'https://www.threads.com/@maren.makes/post/ZEPPELIN1',
  };
  return cards;
}

/** Writes the spec's files of the large catalogue into `dir` (the server derives pages and search). */
export async function writeLargeCatalogue(dir: string, count: number = LARGE_CATALOGUE.count): Promise<void> {
  const { files } = catalogueFiles(largeCatalogueCards(count), {
    generatedAt: new Date('2026-11-20T12:00:00.000Z'),
    nextUpdate: new Date('2026-11-20T13:00:00.000Z'),
  });
  await mkdir(dir, { recursive: true });
  for (const [name, body] of files.filter(([name]) => !name.includes('/'))) {
    await writeFile(path.join(dir, name), body);
  }
}

if (import.meta.main)
  await writeLargeCatalogue(path.resolve(process.argv[2] ?? 'test-output/large-catalogue'));
