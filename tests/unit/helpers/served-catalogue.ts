import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { buildSampleCards } from '../../../scripts/sample/catalogue.ts';
import { catalogueDatesFrom, writeCatalogue } from '../../../server/publisher/export/export-catalogue.ts';
import { addCatalogueTail } from '../../helpers/catalogue-tail.ts';
import { testCard } from './thread-card.ts';

const now = new Date('2026-11-21T10:00:00.000Z');

/**
 * A full export of `count` sample cards with `tail` in front of its first pages, written by the
 * real export into a fresh folder (its search index included). `seed` or `edit` makes catalogues of
 * another version.
 */
export async function catalogueWithTail(
  tail: readonly ThreadCard[],
  {
    count = 60,
    seed = 7,
    edit = (cards) => cards,
  }: { count?: number; seed?: number; edit?: (cards: ThreadCard[]) => ThreadCard[] } = {},
) {
  const base = edit(buildSampleCards(count, now, seed));
  const dir = await mkdtemp(path.join(tmpdir(), 'tail-catalogue-'));
  const written = await writeCatalogue(dir, base, catalogueDatesFrom(now, 60));
  const manifest = tail.length > 0 ? await addCatalogueTail(dir, tail) : written.manifest;
  return { dir, base, list: [...tail, ...base], manifest };
}

/** `count` cards newer than the sample's, with `content` (a function of their number). */
export function tailCards(count: number, content = (n: number) => `Fresh thread ${n} about layout grids`) {
  return Array.from({ length: count }, (_, i) =>
    testCard({
      id: `tail-${i + 1}`,
      content: content(i + 1),
      timestamp: new Date(now.getTime() + (count - i) * 60_000).toISOString(),
    }),
  );
}

/**
 * Answers the stores' fetches from a catalogue folder as the server would at /data/ (404 for a file
 * that is not there); `served.dir` may be moved to another folder between calls. `urls` lists every
 * URL asked for.
 */
export function serveCatalogue(dir: string) {
  const served = { dir, urls: [] as string[] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      served.urls.push(url);
      const relative = url
        .replace(/^\/data\//, '')
        .split('/')
        .map(decodeURIComponent);
      try {
        return new Response(await readFile(path.join(served.dir, ...relative)), { status: 200 });
      } catch {
        return new Response(JSON.stringify({ detail: 'Not found' }), { status: 404 });
      }
    }),
  );
  return served;
}

/** A localStorage of the test's own (Node has none by default). */
export class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  clear() {
    this.#items.clear();
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  setItem(key: string, value: string) {
    this.#items.set(key, value);
  }
}
