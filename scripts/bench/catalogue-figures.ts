// The catalogue benchmark's measurements turned into the figures of its table, each against its budget.
import type { PageFigures } from './catalogue-browser.ts';
import { SEARCH_DEBOUNCE_MS } from './catalogue-browser.ts';
import type { ExportResult } from './catalogue-export.ts';
import { budgeted, info, KB, scaling, SIZES, type Figure, type SizeName } from './catalogue-report.ts';

/** What one size's run measured. */
export interface SizeResult {
  count: number;
  /** The fastest of `builds`. */
  buildMs: number;
  builds: number[];
  /** The server's resident memory once measured, and its high-water mark, in bytes. */
  serverMemory: { rss: number; peak: number };
  serverStartMs: number;
  /** The server built the site itself instead of serving the benchmark's build (sources changed meanwhile). */
  serverRebuilt: boolean;
  pages: PageFigures;
}

export type SizeResults = Partial<Record<SizeName, SizeResult>>;

function perSize(
  results: SizeResults,
  value: (result: SizeResult) => number | string | undefined,
): Figure['values'] {
  const values: Figure['values'] = {};
  for (const size of Object.keys(SIZES) as SizeName[]) {
    const result = results[size];
    const measured = result ? value(result) : undefined;
    if (measured !== undefined) values[size] = measured;
  }
  return values;
}

/** Every query timed once the index was loaded, in the order first met. */
function followUpQueries(results: SizeResults): string[] {
  const queries = Object.values(results).flatMap(
    (result) => result.pages.search?.engine.map((timing) => timing.query) ?? [],
  );
  return [...new Set(queries)];
}

/**
 * Figures 1 to 3 and 5 from the sizes' runs, figure 4 from the export's, shown in the column of
 * the size it exported (`exportSize`).
 */
export function toFigures(
  results: SizeResults,
  exported: ExportResult | null,
  exportSize: SizeName = '100k',
): Figure[] {
  const small = results['1k'];
  const large = results['100k'];
  const figures: Figure[] = [
    scaling(
      'home-html-br',
      'Home HTML (brotli, as served)',
      'bytes',
      small?.pages.htmlBrotliBytes,
      large?.pages.htmlBrotliBytes,
    ),
    scaling(
      'home-js-load',
      'Home JS on load (transferred)',
      'bytes',
      small?.pages.loadScriptBytes,
      large?.pages.loadScriptBytes,
    ),
    scaling(
      'home-js',
      'Home JS once the grid is used (transferred)',
      'bytes',
      small?.pages.scriptBytes,
      large?.pages.scriptBytes,
    ),
    budgeted(
      'text-click-bytes',
      'Click on Text: data transferred',
      'bytes',
      perSize(results, (result) => result.pages.textClick.bytes),
      '< 100 KB',
      (bytes) => bytes < 100 * KB,
    ),
    info(
      'text-click-script-bytes',
      'Click on Text: scripts (the grid hydrates)',
      'bytes',
      perSize(results, (result) => result.pages.textClick.scriptBytes),
    ),
    budgeted(
      'first-search-index-bytes',
      `First search "${large?.pages.search?.firstSearch.query ?? small?.pages.search?.firstSearch.query ?? ''}": /data/search/*`,
      'bytes',
      perSize(results, (result) => result.pages.search?.firstSearch.searchBytes),
      '< 300 KB',
      (bytes) => bytes < 300 * KB,
    ),
    info(
      'first-search-page-bytes',
      'First search: page files for the result cards',
      'bytes',
      perSize(results, (result) => result.pages.search?.firstSearch.pageBytes),
    ),
    info(
      'first-search-other-bytes',
      'First search: other bytes (avatars, images...)',
      'bytes',
      perSize(results, (result) => result.pages.search?.firstSearch.otherBytes),
    ),
    info(
      'first-search-ms',
      `First search: typing → results (incl. ${SEARCH_DEBOUNCE_MS} ms debounce)`,
      'ms',
      perSize(results, (result) => result.pages.search?.firstSearch.ms),
    ),
  ];
  for (const query of followUpQueries(results)) {
    figures.push(
      budgeted(
        `search-engine-ms:${query}`,
        `Search "${query}", index loaded: engine, median`,
        'ms',
        perSize(
          results,
          (result) => result.pages.search?.engine.find((timing) => timing.query === query)?.medianMs,
        ),
        '< 100 ms',
        (ms) => ms < 100,
      ),
    );
    const typed = perSize(results, (result) => {
      const found = result.pages.search?.followUps.find((step) => step.query === query);
      return found?.searchMs;
    });
    if (Object.keys(typed).length > 0) {
      figures.push(
        budgeted(
          `search-typed-ms:${query}`,
          `Search "${query}", index loaded: in the page, after debounce`,
          'ms',
          typed,
          '< 100 ms',
          (ms) => ms < 100,
        ),
        budgeted(
          `search-typed-index-bytes:${query}`,
          `Search "${query}", index loaded: /data/search/* fetched`,
          'bytes',
          perSize(
            results,
            (result) => result.pages.search?.followUps.find((step) => step.query === query)?.searchBytes,
          ),
          '0 B',
          (bytes) => bytes === 0,
        ),
      );
    }
  }
  if (exported) {
    const atExport = (value: number): Figure['values'] => ({ [exportSize]: value });
    figures.push(
      info('export-cold-ms', 'Export from PGlite: cold (empty folder)', 'ms', atExport(exported.cold.ms)),
      info('export-warm-ms', 'Export from PGlite: warm (unchanged)', 'ms', atExport(exported.warm.ms)),
      info(
        'export-rss-before',
        'Export: RSS before (PGlite open, rows read once)',
        'bytes',
        atExport(exported.rssBefore),
      ),
      info(
        'export-peak-cold',
        'Export: peak RSS, cold (sampled/50 ms)',
        'bytes',
        atExport(exported.cold.sampledPeakRss),
      ),
      info(
        'export-peak-warm',
        'Export: peak RSS, warm (sampled/50 ms)',
        'bytes',
        atExport(exported.warm.sampledPeakRss),
      ),
      info('export-max-rss-cold', 'Export: maxRSS after cold', 'bytes', atExport(exported.cold.maxRss)),
      info('export-max-rss-warm', 'Export: maxRSS after warm', 'bytes', atExport(exported.warm.maxRss)),
      info('export-files', 'Export: files written', 'count', atExport(exported.files)),
      info('export-bytes', 'Export: bytes written', 'bytes', atExport(exported.bytes)),
    );
  }
  const build = perSize(results, (result) => result.buildMs);
  figures.push(info('build-ms', 'Site build (buildSite, quickest run)', 'ms', build));
  if (small && large) {
    const marginal = (large.buildMs - small.buildMs) / ((large.count - small.count) / 1000);
    figures.push(
      info('build-marginal-ms', 'Site build: marginal per 1,000 threads', 'ms', { '100k': marginal }),
    );
  }
  figures.push(
    info(
      'server-start-ms',
      'Server start → healthy (loads and compresses all)',
      'ms',
      perSize(results, (result) => result.serverStartMs),
    ),
    info(
      'server-rss',
      'Server memory after the page figures (VmRSS)',
      'bytes',
      perSize(results, (result) => result.serverMemory.rss),
    ),
    info(
      'server-peak-rss',
      'Server memory high-water (VmHWM)',
      'bytes',
      perSize(results, (result) => result.serverMemory.peak),
    ),
  );
  return figures;
}
