import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, expect } from 'vitest';
import {
  CATALOGUE_PAGE_SIZE,
  pageCount,
  type CataloguePage,
} from '../../../../../contract/catalogue-pages.ts';
import { ManifestSchema, type Manifest } from '../../../../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../../../../contract/thread-card.ts';
import { topicSlug } from '../../../../../contract/topics.ts';
import type * as AtomicFile from '../../../../../server/publisher/export/atomic-file.ts';
import { catalogueDatesFrom } from '../../../../../server/publisher/export/export-catalogue.ts';

/** Shared by the export-catalogue tests: a temp catalogue folder, its readers, and a record of its writes. */

/**
 * Every file the exporter wrote, in order, and what the folder held when the manifest was written:
 * filled by `recordingAtomicFile` (a test file mocks atomic-file.ts with it) and emptied before each test.
 */
export const log = { written: [] as string[], beforeManifest: null as string[] | null };

beforeEach(() => {
  log.written = [];
  log.beforeManifest = null;
});

/**
 * Lists every file under `dir`, relative and with forward slashes; the precompressed copies (`.br`,
 * `.gz`) only with `copies` (the tests that compare with catalogueFiles' names check them on their own).
 */
export function filesIn(dir: string, { copies = false } = {}): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && (copies || !/\.(br|gz)$/.test(entry.name)))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** atomic-file.ts with `writeIfChanged` recording into `log` (for a `vi.mock` factory). */
export function recordingAtomicFile(original: typeof AtomicFile): typeof AtomicFile {
  return {
    ...original,
    writeIfChanged: async (file: string, body: string) => {
      if (path.basename(file) === 'manifest.json') log.beforeManifest = filesIn(path.dirname(file));
      const wrote = await original.writeIfChanged(file, body);
      if (wrote) log.written.push(file);
      return wrote;
    },
  };
}

export const now = new Date('2026-11-21T10:00:00.000Z');
export const dates = catalogueDatesFrom(now, 90);
export const later = catalogueDatesFrom(new Date(now.getTime() + 3_600_000), 90);

export const newDir = () => mkdtemp(path.join(tmpdir(), 'catalogue-'));
export const read = async (dir: string, name: string) =>
  JSON.parse(await readFile(path.join(dir, name), 'utf8')) as unknown;
export const readManifest = async (dir: string) => ManifestSchema.parse(await read(dir, 'manifest.json'));
export const readPage = async (dir: string, list: string, page: number) =>
  (await read(dir, `pages/${list}/${page}.json`)) as CataloguePage;

/** Reads every page of a list, checking each one's place in the whole; returns their cards in order. */
export async function readList(dir: string, list: string, manifest: Manifest): Promise<ThreadCard[]> {
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
export async function inodes(dir: string): Promise<Map<string, number>> {
  const entries = await Promise.all(
    filesIn(dir, { copies: true }).map(
      async (name) => [name, (await stat(path.join(dir, name))).ino] as const,
    ),
  );
  return new Map(entries);
}

export function withTopic(cards: ThreadCard[], slug: string): ThreadCard[] {
  return cards.filter((card) => card.topic_tag && topicSlug(card.topic_tag) === slug);
}
