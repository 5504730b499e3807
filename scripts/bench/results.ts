/** What each step of `npm run bench` measures: the shapes of test-output/bench/latest.json. */
import type { CatalogueReport } from './catalogue-measure.ts';
import type { VersionsReport } from './versions-measure.ts';

/** One load run (autocannon) against one URL. */
export interface LoadResult {
  url: string;
  /** Mean requests per second over the run. */
  requestsPerSec: number;
  p99Ms: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
  requests: number;
  /** Content-Encoding of one answer to the same request (`identity` when none). */
  encoding: string;
  /** Body bytes of that answer, as sent. */
  bodyBytes: number;
}

/** The product and its reference on one path, measured one after the other. */
export interface LoadComparison {
  label: string;
  path: string;
  product: LoadResult;
  reference: LoadResult;
  /** product / reference requests per second. */
  ratio: number | null;
}

export interface StaticResult {
  reference: string;
  comparisons: LoadComparison[];
}

export interface ApiResult {
  reference: string;
  rateLimitMultiplier: number;
  comparisons: LoadComparison[];
}

/** One Lighthouse run's figures (scores 0-100, times in ms). */
export interface LighthouseRun {
  performance: number;
  tbtMs: number;
  lcpMs: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
}

/** Medians over the runs of one page. */
export interface LighthouseSummary extends LighthouseRun {
  url: string;
  runs: number;
  /**
   * The blank reference page, run for run beside this one (blank-page.ts, decision 053): its median
   * performance and TBT, and the median over the runs of this page's TBT minus the blank run's.
   */
  blank?: { performance: number; tbtMs: number; tbtOverBlankMs: number };
}

/**
 * A page other than home (issue 20): a topic, a thread page, a profile. Measured at one size only,
 * on the site `site` names (a thread page and a profile need rows in the server's database).
 */
export interface LighthousePage {
  /** 'topic', 'thread' or 'profile'. */
  page: string;
  /** What served it, in words, for the report. */
  site: string;
  summary: LighthouseSummary;
}

export interface LighthouseResult {
  sizes: { threads: number; home: LighthouseSummary }[];
  pages: LighthousePage[];
}

export interface PageScripts {
  page: string;
  scripts: number;
  rawBytes: number;
  brotliBytes: number;
}

export interface JsBytesResult {
  threads: number;
  pages: PageScripts[];
  home: PageScripts | null;
}

export interface NoJsResult {
  /** Home as built, served by the product (the 1k Lighthouse runs of this step). */
  withJs: LighthouseSummary;
  /** The same HTML with every script removed, served by nginx. */
  noJs: LighthouseSummary;
  /** withJs LCP / noJs LCP. */
  ratio: number | null;
}

export interface BuildTimeResult {
  small: { count: number; seconds: number };
  large: { count: number; seconds: number };
  perThousandSeconds: number;
  referenceSeconds: number;
  /** perThousandSeconds / referenceSeconds. */
  ratio: number | null;
}

export interface ApprovalResult {
  runs: { catalogueMs: number; homeMs: number }[];
  catalogueMedianMs: number;
  homeMedianMs: number;
}

/** The scale step at one size: a database of `threads` approved threads. */
export interface ScaleSize {
  threads: number;
  /** The export of all of them in a process of its own (catalogue-export.ts), cold then warm. */
  exportColdMs: number;
  exportWarmMs: number;
  /** Its RSS once PGlite is open, before any row is read. */
  exportRssOpen: number;
  /**
   * Its RSS once PGlite has read every approved row once (PGlite's own growth, in this process),
   * before the export, and the highest sampled during the cold export.
   */
  exportRssBefore: number;
  exportPeakRss: number;
  /** exportPeakRss - exportRssBefore: the memory the export itself added. */
  exportAddedBytes: number;
  /** The server's first start on the database: it exports the catalogue and builds the site. */
  firstStartMs: number;
  /** Its next start (site built): from spawn to /api/health answering 200 and / served. */
  startMs: number;
  /** The server's RSS once started and idle (VmRSS). */
  idleRss: number;
  approval: ApprovalResult;
}

export interface ScaleResult {
  sizes: ScaleSize[];
}

export interface Budget {
  figure: string;
  budget: string;
  actual: string;
  pass: boolean;
}

export interface BenchReport {
  generatedAt: string;
  durationMs: number;
  machine: { cpus: number; node: string; pinning: string };
  notes: string[];
  static?: StaticResult;
  api?: ApiResult;
  lighthouse?: LighthouseResult;
  jsBytes?: JsBytesResult;
  noJs?: NoJsResult;
  buildTime?: BuildTimeResult;
  approval?: ApprovalResult;
  scale?: ScaleResult;
  /** The smoke only: the catalogue and versions benchmarks' smokes (their own runs write their own files). */
  catalogue?: CatalogueReport;
  versions?: VersionsReport;
  /** Steps that broke, with why: the report still shows the others. */
  failures: { step: string; error: string }[];
  budgets: Budget[];
}

/** What the steps put in the report (the rest is the run's own). */
export type Measured = Omit<
  BenchReport,
  'generatedAt' | 'durationMs' | 'machine' | 'notes' | 'failures' | 'budgets'
>;
