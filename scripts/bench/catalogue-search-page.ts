// The search parts of the catalogue benchmark that run in Chromium: the search box as a visitor
// uses it, and the search engine (src/lib/catalogue-search.ts) timed on its own inside the page.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { queryTerms, SEARCH_ENTRY_FILE, type SearchIndexEntry } from '../../contract/search-terms.ts';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import type { createCatalogueSearch } from '../../src/lib/catalogue-search.ts';

/** Where the page imports the engine from (answered by `serveEngineSource`, never by the server). */
const ENGINE_PATH = '/__bench/src/lib/catalogue-search.ts';

/** The engine bundled with what it imports (the contract's schemas and zod), as one ES module. */
async function engineBundle(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(PROJECT_ROOT, 'src/lib/catalogue-search.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * Lets pages of `context` import the search engine under /__bench/, bundled from its source (zod is
 * a package a page cannot import by name), so it can be timed in the browser apart from typing,
 * debouncing and rendering.
 */
export async function serveEngineSource(context: BrowserContext, baseUrl: string): Promise<void> {
  const body = await engineBundle();
  await context.route(`${baseUrl}/__bench/**`, async (route) => {
    if (new URL(route.request().url()).pathname !== ENGINE_PATH) return route.fulfill({ status: 404 });
    return route.fulfill({ status: 200, contentType: 'text/javascript', body });
  });
}

/** The shards that can hold terms starting with `term`: the reader's rule, for choosing queries. */
function shardsFor(entry: SearchIndexEntry, term: string): string[] {
  const below = entry.shards.filter(([key]) => key.startsWith(term));
  if (below.length > 0) return below.map(([, file]) => file);
  const prefixes = entry.shards.filter(([key]) => term.startsWith(key));
  const longest = prefixes.reduce<[string, string] | undefined>(
    (best, shard) => (shard[0].length > (best?.[0].length ?? 0) ? shard : best),
    undefined,
  );
  return longest ? [longest[1]] : [];
}

/**
 * Up to `count` words that the shards loaded for `first` already answer, the most frequent first: the
 * queries that time a search once the index is loaded.
 */
export async function followUpQueries(catalogueDir: string, first: string, count = 2): Promise<string[]> {
  const read = async (name: string): Promise<unknown> =>
    JSON.parse(await readFile(path.join(catalogueDir, name), 'utf8'));
  const entry = (await read(SEARCH_ENTRY_FILE)) as SearchIndexEntry;
  const firstTerms = queryTerms(first);
  const loaded = new Set(firstTerms.flatMap((term) => shardsFor(entry, term)));
  const candidates: [string, number][] = [];
  for (const file of loaded) {
    const shard = (await read(`search/${file}`)) as { terms: string[]; postings: number[][] };
    shard.terms.forEach((term, i) => {
      const answered = shardsFor(entry, term).every((other) => loaded.has(other));
      if (term.length >= 4 && !firstTerms.includes(term) && answered) {
        candidates.push([term, shard.postings[i]?.length ?? 0]);
      }
    });
  }
  return candidates
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([term]) => term);
}

export interface EngineTiming {
  query: string;
  matches: number;
  /** The first call, which loads what the index still lacks (served from the browser's cache). */
  firstMs: number;
  /** Of `runs` samples, each the mean of `batch` calls (the page's clock ticks in 0.1 ms). */
  medianMs: number;
  minMs: number;
  maxMs: number;
}

/**
 * Times `search(query)` of a fresh engine in the page: once to load what it lacks, then `runs`
 * samples of `batch` calls each; the median sample counts.
 */
export async function timeEngine(
  page: Page,
  queries: readonly string[],
  { runs = 21, batch = 5 } = {},
): Promise<EngineTiming[]> {
  return page.evaluate(
    async ({ url, queries, runs, batch }) => {
      const engine = (await import(url)) as { createCatalogueSearch: typeof createCatalogueSearch };
      const search = engine.createCatalogueSearch(async (file) => (await fetch(file)).json());
      const timings = [];
      for (const query of queries) {
        let started = performance.now();
        const { positions } = await search.search(query);
        const firstMs = performance.now() - started;
        const times: number[] = [];
        for (let run = 0; run < runs; run++) {
          started = performance.now();
          for (let call = 0; call < batch; call++) await search.search(query);
          times.push((performance.now() - started) / batch);
        }
        times.sort((a, b) => a - b);
        const medianMs = times[Math.floor(times.length / 2)] ?? NaN;
        const [minMs, maxMs] = [times[0] ?? NaN, times.at(-1) ?? NaN];
        timings.push({ query, matches: positions.length, firstMs, medianMs, minMs, maxMs });
      }
      return timings;
    },
    { url: new URL(ENGINE_PATH, page.url()).href, queries, runs, batch },
  );
}

export interface TypedQuery {
  /** From the input event of the typing to the status line showing the result. */
  ms: number;
  /**
   * From the search's start to the result: the start is the first status line naming the new query
   * (the search box's debounce is over), or the input event plus `debounceMs` when no line came first.
   */
  searchMs: number;
  startFrom: 'status' | 'debounce';
  /** Every status line seen on the way, in order. */
  statuses: string[];
}

interface QueryState {
  t0: number;
  started: number;
  t1: number;
  statuses: string[];
}

/**
 * Types `query` into the search box and times it in the page, from the input event to the status
 * line that reports the finished search: "N threads match “query”" with `matches` when it is known
 * (the line shows the new query with the old count while a search runs), or any count otherwise.
 */
export async function typeQuery(
  page: Page,
  query: string,
  matches: number | null,
  debounceMs: number,
): Promise<TypedQuery> {
  await page.evaluate(
    ({ query, matches }) => {
      const state: QueryState = { t0: 0, started: 0, t1: 0, statuses: [] };
      (window as unknown as { __benchQuery: QueryState }).__benchQuery = state;
      const input = document.querySelector('input[type=search]');
      const browser = document.querySelector('.thread-browser');
      if (!input || !browser) throw new Error('no search box on the page');
      input.addEventListener('input', () => (state.t0 ||= performance.now()), { capture: true });
      const finished = (text: string) => {
        if (text.startsWith('Searching')) return false;
        if (matches === null) return true;
        return matches === 0 ? text.startsWith('No threads') : text.startsWith(`${matches} thread`);
      };
      const observer = new MutationObserver(() => {
        const text = document.querySelector('.thread-browser__status')?.textContent ?? '';
        if (state.statuses.at(-1) !== text) state.statuses.push(text);
        if (!state.t0 || !text.includes(`“${query}”`)) return;
        const now = performance.now();
        if (finished(text)) {
          state.t1 = now;
          observer.disconnect();
        } else {
          state.started ||= now;
        }
      });
      observer.observe(browser, { subtree: true, childList: true, characterData: true });
    },
    { query, matches },
  );
  await page.getByLabel('Search threads').fill(query);
  const read = () => (window as unknown as { __benchQuery: QueryState }).__benchQuery;
  // Done when the search answered, or failed (its alert is up).
  await page.waitForFunction(
    () =>
      (window as unknown as { __benchQuery: QueryState }).__benchQuery.t1 > 0 ||
      document.querySelector('.thread-browser [role=alert]') !== null,
    null,
    { timeout: 60_000 },
  );
  const { t0, started, t1, statuses } = await page.evaluate(read);
  if (t1 === 0) {
    const alert = await page.locator('.thread-browser [role=alert]').first().textContent();
    throw new Error(`the search for "${query}" failed: ${alert ?? ''}`);
  }
  const startFrom = started > 0 ? 'status' : 'debounce';
  const searchMs = t1 - (started > 0 ? started : t0 + debounceMs);
  return { ms: t1 - t0, searchMs, startFrom, statuses };
}
