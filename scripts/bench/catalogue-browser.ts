// Figures 1 to 3 of the catalogue benchmark: what the home page costs in Chromium at one size.
import type { Browser, Page } from 'playwright-core';
import { bytesOf, NetworkLog, servedBrotli, type Transfer } from './catalogue-network.ts';
import {
  followUpQueries,
  serveEngineSource,
  timeEngine,
  typeQuery,
  type EngineTiming,
  type TypedQuery,
} from './catalogue-search-page.ts';

/** The search box's own wait after the last keystroke (SEARCH_DELAY_MS in ThreadBrowser.tsx). */
export const SEARCH_DEBOUNCE_MS = 150;

/** The first search a visitor makes. */
export const FIRST_QUERY = 'typography';

export interface SearchStep extends TypedQuery {
  query: string;
  searchBytes: number;
  pageBytes: number;
  otherBytes: number;
  transfers: { path: string; bytes: number }[];
}

export interface PageFigures {
  htmlBrotliBytes: number;
  htmlEncoding: string;
  /** Scripts the page loaded by its load event (before any use of the grid). */
  loadScriptBytes: number;
  /** Scripts loaded once the grid is in use (after the click on Text): load plus hydration. */
  scriptBytes: number;
  scripts: ScriptTransfer[];
  /** What the click on Text fetched: data (`bytes`) and the grid's hydration (`scriptBytes`). */
  textClick: {
    bytes: number;
    scriptBytes: number;
    status: string;
    transfers: { path: string; bytes: number }[];
  };
  /** Null when the search failed (searchError says why): the other figures still count. */
  search: SearchFigures | null;
  searchError: string | null;
}

export interface SearchFigures {
  firstSearch: SearchStep;
  engine: EngineTiming[];
  followUps: SearchStep[];
}

const isSearch = (path: string) => path.startsWith('/data/search/');
const isPage = (path: string) => path.startsWith('/data/pages/');

function step(query: string, typed: TypedQuery, transfers: readonly Transfer[]): SearchStep {
  const searchBytes = bytesOf(transfers, isSearch);
  const pageBytes = bytesOf(transfers, isPage);
  const otherBytes = bytesOf(transfers) - searchBytes - pageBytes;
  return { query, ...typed, searchBytes, pageBytes, otherBytes, transfers: paths(transfers) };
}

function paths(transfers: readonly Transfer[]): { path: string; bytes: number }[] {
  return transfers.map((transfer) => ({ path: new URL(transfer.url).pathname, bytes: transfer.bytes }));
}

interface ScriptTransfer {
  path: string;
  bytes: number;
  encoding: string;
}

function scriptsOf(transfers: readonly Transfer[]): ScriptTransfer[] {
  return transfers
    .filter((transfer) => transfer.type === 'Script')
    .map((transfer) => ({
      path: new URL(transfer.url).pathname,
      bytes: transfer.bytes,
      encoding: transfer.encoding,
    }));
}

const sum = (scripts: readonly ScriptTransfer[]) =>
  scripts.reduce((total, script) => total + script.bytes, 0);

function statusText(): string {
  return document.querySelector('.thread-browser__status')?.textContent ?? '';
}

async function measureSearch(page: Page, network: NetworkLog, catalogueDir: string): Promise<SearchFigures> {
  let mark = network.mark();
  const first = await typeQuery(page, FIRST_QUERY, null, SEARCH_DEBOUNCE_MS);
  await network.quiet();
  const firstSearch = step(FIRST_QUERY, first, network.since(mark));
  const queries = await followUpQueries(catalogueDir, FIRST_QUERY);
  const engine = await timeEngine(page, [FIRST_QUERY, ...queries]);
  const followUps: SearchStep[] = [];
  for (const query of queries) {
    const matches = engine.find((timing) => timing.query === query)?.matches ?? null;
    await network.quiet();
    mark = network.mark();
    const typed = await typeQuery(page, query, matches, SEARCH_DEBOUNCE_MS);
    await network.quiet();
    followUps.push(step(query, typed, network.since(mark)));
  }
  return { firstSearch, engine, followUps };
}

/** Loads the home page of the server at `baseUrl` in a fresh context and measures figures 1 to 3. */
export async function measurePages(
  browser: Browser,
  baseUrl: string,
  catalogueDir: string,
): Promise<PageFigures> {
  const html = await servedBrotli(`${baseUrl}/`);
  // bypassCSP only lets the engine's source be imported for timing; the site's own scripts are unaffected.
  const context = await browser.newContext({ bypassCSP: true, serviceWorkers: 'block' });
  try {
    await serveEngineSource(context, baseUrl);
    const page = await context.newPage();
    const network = await NetworkLog.attach(context, page);

    // 1. The home page as loaded. The grid hydrates on first use (decision 020): loading runs none of
    // its JavaScript, so there is nothing to wait for but the network.
    await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
    await network.quiet();
    const onLoad = scriptsOf(network.since(0));

    // 2. A click on Text, as a visitor makes it: the pointer reaches the button (the grid starts
    // hydrating), the click lands once the button is enabled, then the grid shows the text threads.
    const mark = network.mark();
    const text = page.getByRole('button', { name: 'Text', exact: true });
    await text.hover();
    await text.click();
    await page.waitForFunction(() => {
      const status = document.querySelector('.thread-browser__status')?.textContent ?? '';
      return status.startsWith('Showing') && status.endsWith('text threads');
    });
    await network.quiet();
    const clicked = network.since(mark);
    const isScript = (transfer: Transfer) => transfer.type === 'Script';
    const textClick = {
      bytes: bytesOf(clicked.filter((transfer) => !isScript(transfer))),
      scriptBytes: bytesOf(clicked.filter(isScript)),
      status: await page.evaluate(statusText),
      transfers: paths(clicked),
    };
    const scripts = scriptsOf(network.since(0));

    // 3. The first search, then the engine on its own, then queries the loaded shards answer.
    const search = await measureSearch(page, network, catalogueDir).catch((error: unknown) => String(error));
    return {
      htmlBrotliBytes: html.bytes,
      htmlEncoding: html.encoding,
      loadScriptBytes: sum(onLoad),
      scriptBytes: sum(scripts),
      scripts,
      textClick,
      search: typeof search === 'string' ? null : search,
      searchError: typeof search === 'string' ? search : null,
    };
  } finally {
    await context.close();
  }
}
