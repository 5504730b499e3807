/**
 * Approval to visible: on the live server, the admin approves a pending thread through the API; the
 * time until a visitor sees it in the served catalogue page and in the served home HTML.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { StepContext } from './context.ts';
import { waitUntilPublished, type LiveServer } from './live-server.ts';
import { siteClient } from '../../tests/integration/helpers/site-client.ts';
import type { ApprovalResult } from './results.ts';
import { median } from './stats.ts';

/** How long an approval may take to show, by default. */
const TIMEOUT_MS = 5 * 60_000;
/** How long the approval step waits for a curation run already under way to end. */
const RUN_WAIT_MS = 2 * 60_000;

/** A thread of the review queue, as /api/threads/pending-review lists it (the fields read here). */
export interface Pending {
  id: string;
  permalink: string;
}

/** Whether `url` answers 2xx with `text` in its body (bypassing any cache). */
export async function served(url: string, text: string): Promise<boolean> {
  const response = await fetch(url, { headers: { 'cache-control': 'no-cache' } }).catch(() => null);
  return response?.ok === true && (await response.text()).includes(text);
}

/** Polls `url` every 100 ms until its body holds `text`; the ms from `started`. */
async function visibleAfter(url: string, text: string, started: number, timeoutMs: number): Promise<number> {
  while (!(await served(url, text))) {
    if (performance.now() - started > timeoutMs) throw new Error(`${text} did not appear in ${url}`);
    await sleep(100);
  }
  return performance.now() - started;
}

/** The first `count` threads of the review queue, as the admin (cookie `admin`) reads it. */
export async function pendingThreads(live: LiveServer, admin: string, count: number): Promise<Pending[]> {
  const base = live.server.baseUrl;
  const { apiOk } = siteClient(base);
  const queue = (await (await apiOk(base, '/api/threads/pending-review', { cookie: admin })).json()) as {
    threads: Pending[];
  };
  const pending = queue.threads.slice(0, count);
  if (pending.length < count)
    throw new Error(`the review queue holds ${pending.length} threads, not ${count}`);
  return pending;
}

/**
 * Approves each of `pending` in turn through the API and times until it is served in
 * /data/pages/all/1.json and in the home HTML; waits until the site is published between them.
 * Each approval may take `timeoutMs` to show, and as long again to be published.
 */
export async function timeApprovals(
  live: LiveServer,
  admin: string,
  pending: readonly Pending[],
  progress: (message: string) => void,
  timeoutMs = TIMEOUT_MS,
): Promise<ApprovalResult> {
  const base = live.server.baseUrl;
  const { apiOk } = siteClient(base);
  const runs: ApprovalResult['runs'] = [];
  for (const [index, thread] of pending.entries()) {
    const which = `approval ${index + 1}/${pending.length}`;
    progress(`${which}: approving ${thread.permalink}…`);
    const started = performance.now();
    await apiOk(base, '/api/threads/approve', {
      method: 'POST',
      cookie: admin,
      body: { thread_id: thread.id },
    });
    const [catalogueMs, homeMs] = await Promise.all([
      visibleAfter(`${base}/data/pages/all/1.json`, thread.permalink, started, timeoutMs),
      visibleAfter(`${base}/`, thread.permalink, started, timeoutMs),
    ]);
    progress(
      `${which}: in the catalogue after ${Math.round(catalogueMs)} ms, on home after ${Math.round(homeMs)} ms`,
    );
    runs.push({ catalogueMs, homeMs });
    await waitUntilPublished(live, async () => true, 'the site after the approval', timeoutMs);
  }
  return {
    runs,
    catalogueMedianMs: median(runs.map((run) => run.catalogueMs)),
    homeMedianMs: median(runs.map((run) => run.homeMs)),
  };
}

/**
 * Starts a curation run through the API; while one is already running (409: the server's own run at
 * start, or a scheduled one), asks again every second, for at most RUN_WAIT_MS.
 */
export async function refresh(base: string, admin: string): Promise<void> {
  const { api } = siteClient(base);
  const started = performance.now();
  for (;;) {
    const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
    const body = await response.text();
    if (response.ok) return;
    if (response.status !== 409 || performance.now() - started > RUN_WAIT_MS)
      throw new Error(`POST /api/admin/refresh: ${response.status} ${body}`);
    await sleep(1000);
  }
}

export async function measureApproval(context: StepContext): Promise<ApprovalResult> {
  const { progress } = context;
  const live = await context.live();
  const base = live.server.baseUrl;
  // The product server's pages are on its own origin.
  const { signInCurator } = siteClient(base);
  const admin = await signInCurator(base);
  progress('approval: a curation run (simulated Threads) to fill the review queue…');
  await refresh(base, admin);
  const pending = await pendingThreads(live, admin, context.options.approvals);
  await waitUntilPublished(live, async () => true, 'the site after the curation run');
  return timeApprovals(live, admin, pending, progress);
}
