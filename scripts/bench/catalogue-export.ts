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
import { PGlite } from '@electric-sql/pglite';
import { openPglite } from '../../server/db/client.ts';
import { threads } from '../../server/db/schema.ts';
import { approvedCards } from '../../server/publisher/export/card-source.ts';
import { exportCatalogue } from '../../server/publisher/export/export-catalogue.ts';
import type { NewThread } from '../../server/repositories/threads.ts';
import { buildSampleCards } from '../sample/catalogue.ts';

/** Rows per COPY: a few MB of CSV, so the text of 100,000 rows is never built at once. */
const COPY_ROWS = 10_000;

/** The columns `insert` fills, in the order of its CSV fields; the rest take their defaults. */
const COPY_COLUMNS = [
  'shortcode',
  'source',
  'status',
  'query',
  'username',
  'author_name',
  'text',
  'image_url',
  'topic_tag',
  'permalink',
  'likes',
  'replies',
  'posted_at',
  'decided_at',
] as const;

/** One field of CSV as COPY reads it: NULL is the unquoted empty field, a quoted one is always a value. */
function csvField(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (value instanceof Date) return value.toISOString();
  return `"${value.replaceAll('"', '""')}"`;
}

function csvRow(row: NewThread): string {
  const fields: (string | number | Date | null | undefined)[] = [
    row.shortcode,
    row.source,
    row.status,
    row.query,
    row.username,
    row.authorName,
    row.text,
    row.imageUrl,
    row.topicTag,
    row.permalink,
    row.likes,
    row.replies,
    row.postedAt,
    row.decidedAt,
  ];
  return `${fields.map(csvField).join(',')}\n`;
}

/**
 * Loads `rows` into `threads` with COPY in chunks, all in one transaction. COPY skips Drizzle's
 * parameters and PostgreSQL's per-statement work; the triggers are off for this one transaction
 * (session_replication_role: PGlite's session is a superuser's), which leaves the rows as they would
 * be: the database is new, so no consent sets shown_as_card (false either way), and the change log's
 * entries for these inserts are older than any export's snapshot, which never reads them. The triggers
 * cost three quarters of the load (30,000 rows: 8.3 s with them, 2.2 s without). No FREEZE: PostgreSQL
 * refuses it unless the table was created or truncated in the same transaction, and the migrations
 * created it in theirs.
 */
async function copyThreads(client: PGlite, rows: readonly NewThread[]): Promise<void> {
  const copy = `COPY threads (${COPY_COLUMNS.join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`;
  await client.transaction(async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    for (let start = 0; start < rows.length; start += COPY_ROWS) {
      const csv = rows
        .slice(start, start + COPY_ROWS)
        .map(csvRow)
        .join('');
      await tx.query(copy, [], { blob: new Blob([csv]) });
    }
  });
}

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
    const approved = cards.map((card, index): NewThread => {
      const shortcode = `bench${String(index).padStart(7, '0')}`;
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
    if (!('$client' in handle.db) || !(handle.db.$client instanceof PGlite))
      throw new Error('insert loads PGlite only');
    await copyThreads(handle.db.$client, [...approved, ...pending]);
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
