/**
 * The export benchmark's child process, run by scripts/bench/catalogue.ts so its memory high-water
 * mark belongs to one step alone:
 *   node scripts/bench/catalogue-export.ts insert DIR COUNT [PENDING]
 *       COUNT approved threads into PGlite in DIR/db, and PENDING pending ones (default 0) newer
 *       than all of them, so that an approved one lands on the first page
 *   node scripts/bench/catalogue-export.ts export DIR         exportCatalogue cold, then warm
 * Prints one line of JSON on stdout.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { openPglite } from '../../server/db/client.ts';
import { threads } from '../../server/db/schema.ts';
import { approvedCards } from '../../server/publisher/export/card-source.ts';
import { exportCatalogue } from '../../server/publisher/export/export-catalogue.ts';
import type { NewThread } from '../../server/repositories/threads.ts';
import { buildSampleCards } from '../sample/catalogue.ts';

/** Rows per INSERT: 14 parameters a row stays far below PostgreSQL's 65,535. */
const BATCH = 1000;

/** What `insert` prints. */
export interface InsertResult {
  inserted: number;
  pending: number;
  ms: number;
}

/** One timed export and the memory it used. */
export interface ExportRun {
  ms: number;
  dataChanged: boolean;
  /** The highest RSS sampled every 50 ms during the run (from a worker thread), in bytes. */
  sampledPeakRss: number;
  /** The process's RSS high-water mark after the run (process.resourceUsage().maxRSS), in bytes. */
  maxRss: number;
}

/** What `export` prints. */
export interface ExportResult {
  approved: number;
  /** RSS once the database is open, before it has read the rows, in bytes. */
  rssOpen: number;
  /**
   * RSS once the database has read every approved row once (as the export will, page by page), before
   * the first export: what PGlite, in this process, grows to for any reader of these rows.
   */
  rssBefore: number;
  /** The RSS high-water mark before the first export (opening PGlite), in bytes. */
  maxRssBefore: number;
  cold: ExportRun;
  warm: ExportRun;
  files: number;
  bytes: number;
}

async function insert(dir: string, count: number, pendingCount: number): Promise<InsertResult> {
  await rm(path.join(dir, 'db'), { recursive: true, force: true });
  const handle = await openPglite(path.join(dir, 'db'));
  try {
    await handle.migrate();
    const started = performance.now();
    const now = new Date();
    const cards = buildSampleCards(count, now);
    for (let start = 0; start < cards.length; start += BATCH) {
      const rows = cards.slice(start, start + BATCH).map((card, offset): NewThread => {
        const shortcode = `bench${String(start + offset).padStart(7, '0')}`;
        const username = card.handle.replace(/^@/, '');
        return {
          shortcode,
          source: 'public_search',
          status: 'approved',
          query: 'typography',
          username,
          authorName: card.author,
          text: card.content,
          imageUrl: card.image,
          topicTag: card.topic_tag ?? null,
          permalink: `https://www.threads.com/@${username}/post/${shortcode}`,
          likes: card.likes,
          replies: card.replies,
          postedAt: card.timestamp ? new Date(card.timestamp) : null,
          decidedAt: now,
        };
      });
      await handle.db.insert(threads).values(rows);
    }
    const pending = Array.from({ length: pendingCount }, (_, index): NewThread => {
      const shortcode = `benchpending${String(index).padStart(4, '0')}`;
      return {
        shortcode,
        source: 'public_search',
        status: 'pending',
        query: 'typography',
        username: 'benchpending',
        authorName: 'Bench Pending',
        text: `A pending thread of the benchmark (${index + 1}), about typography.`,
        topicTag: 'typography',
        permalink: `https://www.threads.com/@benchpending/post/${shortcode}`,
        likes: 1,
        replies: 0,
        // Newer than every approved thread (the newest is 20 minutes old), and not in the future:
        // once approved it leads the first page.
        postedAt: new Date(now.getTime() - 10 * 60_000 + index * 1000),
      };
    });
    if (pending.length > 0) await handle.db.insert(threads).values(pending);
    return { inserted: cards.length, pending: pending.length, ms: performance.now() - started };
  } finally {
    await handle.close();
  }
}

// Samples in a worker thread: RSS is the whole process's, and the worker keeps sampling while the
// main thread is busy in synchronous work (building 100,000 cards' files).
const SAMPLER = `
const { workerData } = require('node:worker_threads');
const peak = new Float64Array(workerData);
setInterval(() => { peak[0] = Math.max(peak[0], process.memoryUsage.rss()); }, 50);
`;

/** The process's RSS high-water mark so far (maxRSS is in KiB on Linux), in bytes. */
function maxRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

async function timed(run: () => Promise<boolean>, peak: Float64Array): Promise<ExportRun> {
  peak[0] = process.memoryUsage.rss();
  const started = performance.now();
  const dataChanged = await run();
  const ms = performance.now() - started;
  const sampledPeakRss = Math.max(peak[0], process.memoryUsage.rss());
  return { ms, dataChanged, sampledPeakRss, maxRss: maxRss() };
}

async function exportTwice(dir: string): Promise<ExportResult> {
  const catalogueDir = path.join(dir, 'catalogue');
  await rm(catalogueDir, { recursive: true, force: true });
  const handle = await openPglite(path.join(dir, 'db'));
  const shared = new SharedArrayBuffer(8);
  const peak = new Float64Array(shared);
  const sampler = new Worker(SAMPLER, { eval: true, workerData: shared });
  try {
    const target = {
      catalogueDir,
      // Never read: there are approved threads.
      sampleCatalogueDir: path.join(dir, 'no-sample'),
      refreshIntervalMinutes: 60,
    };
    const now = new Date();
    const approved = await handle.db.$count(threads);
    const rssOpen = process.memoryUsage.rss();
    // The database's own working set first: PGlite runs in this process (PostgreSQL would not), and
    // its heap grows once to hold the pages it reads, whoever reads them.
    for await (const batch of approvedCards(handle.db, {})()) void batch;
    const rssBefore = process.memoryUsage.rss();
    const maxRssBefore = maxRss();
    const cold = await timed(() => exportCatalogue(handle.db, target, now), peak);
    const warm = await timed(() => exportCatalogue(handle.db, target, now), peak);
    const entries = await readdir(catalogueDir, { recursive: true, withFileTypes: true });
    const sizes = await Promise.all(
      entries
        .filter((entry) => entry.isFile())
        .map(async (entry) => (await stat(path.join(entry.parentPath, entry.name))).size),
    );
    const bytes = sizes.reduce((sum, size) => sum + size, 0);
    return { approved, rssOpen, rssBefore, maxRssBefore, cold, warm, files: sizes.length, bytes };
  } finally {
    await sampler.terminate();
    await handle.close();
  }
}

const [mode, dir, count, pending = '0'] = process.argv.slice(2);
if (
  !dir ||
  (mode !== 'insert' && mode !== 'export') ||
  (mode === 'insert' && (!Number(count) || !Number.isInteger(Number(pending))))
) {
  console.error('usage: node scripts/bench/catalogue-export.ts insert DIR COUNT [PENDING] | export DIR');
  process.exit(2);
}
const result = mode === 'insert' ? await insert(dir, Number(count), Number(pending)) : await exportTwice(dir);
console.log(JSON.stringify(result));
