import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from '@playwright/test';
import { siteClient } from '../../integration/helpers/site-client.ts';
import { INSTANCE_PORTS, INSTANCES_SITE } from '../../site-under-test.ts';
import { expect, test } from '../fixtures.ts';

// Three instances on one PostgreSQL behind nginx, round robin (decision 036): every request of one
// page load may reach another instance, yet a visitor sees one catalogue version at a time.
const nginx = INSTANCES_SITE.publicUrl;
const instance = `http://127.0.0.1:${INSTANCE_PORTS[0]}`;
const { api, apiOk, signInCurator } = siteClient(nginx);
const RELOADS = 20;
const QUERY = 'design';

interface DataAnswer {
  path: string;
  status: number;
  version: string | null;
}

async function dataAnswer(response: Response): Promise<DataAnswer | null> {
  const { pathname } = new URL(response.url());
  if (!pathname.startsWith('/data/')) return null;
  const body: unknown = response.status() === 200 ? await response.json().catch(() => null) : null;
  const version = (body as { version?: unknown } | null)?.version;
  return { path: pathname, status: response.status(), version: typeof version === 'string' ? version : null };
}

/** Approves the queue's threads one by one, a few seconds apart, until stopped or the queue is used up. */
async function keepApproving(admin: string, stop: AbortSignal): Promise<number> {
  const queue = (await (await apiOk(nginx, '/api/threads/pending-review', { cookie: admin })).json()) as {
    threads: { id: string }[];
  };
  let approved = 0;
  for (const thread of queue.threads.slice(0, 6)) {
    if (stop.aborted) break;
    await apiOk(nginx, '/api/threads/approve', {
      method: 'POST',
      cookie: admin,
      body: { thread_id: thread.id },
    });
    approved += 1;
    await sleep(4_000, undefined, { signal: stop }).catch(() => {});
  }
  return approved;
}

test('pages, /data and search agree on one version across reloads while approvals happen', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Signed in on one instance (its simulated Threads); the session is in the shared database.
  const admin = await signInCurator(instance);
  // The first admin sign-in starts a run of its own (decision 024): one more after it fills the queue.
  for (let tries = 0; ; tries++) {
    const refresh = await api(instance, '/api/admin/refresh', { method: 'POST', cookie: admin });
    if (refresh.ok) break;
    expect(refresh.status === 409 && tries < 120).toBe(true);
    await sleep(500);
  }
  const stop = new AbortController();
  const approving = keepApproving(admin, stop.signal);

  const seen = new Set<string>();
  try {
    // Twenty reloads at least; more (bounded) until a switch to a new version happened among them.
    for (let reload = 0; reload < RELOADS || (seen.size < 2 && reload < 120); reload++) {
      const answers: Promise<DataAnswer | null>[] = [];
      // Any failed request of the load, /data or not: named when the search does not show.
      const failed: string[] = [];
      const listener = (response: Response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
        answers.push(dataAnswer(response));
      };
      page.on('response', listener);
      await page.goto(`/?q=${QUERY}`);
      const searched = page.getByRole('status').filter({ hasText: new RegExp(`match(es)? “${QUERY}”`) });
      await expect(searched)
        .toBeVisible({
          timeout: 10_000,
        })
        .catch((error: unknown) => {
          throw new Error(`${String(error)}\nFailed requests of this load: ${failed.join(', ') || 'none'}`);
        });
      await page.waitForLoadState('networkidle');
      page.off('response', listener);
      const data = (await Promise.all(answers)).filter((answer) => answer !== null);

      // Never a missing shard, page or asset: every answer of the load is there.
      expect(failed).toEqual([]);
      // What the results were read from is one version: the last manifest, the last search entry,
      // and every page read after that manifest.
      const lastManifest = data.findLastIndex((answer) => answer.path === '/data/manifest.json');
      const manifest = data[lastManifest]?.version;
      expect(manifest).toBeTruthy();
      const entry = data.findLast((answer) => answer.path === '/data/search/index.json');
      if (entry?.version) expect(entry.version).toBe(manifest);
      const pages = data.slice(lastManifest).filter((answer) => answer.path.startsWith('/data/pages/'));
      for (const read of pages) if (read.version) expect(read.version).toBe(manifest);
      seen.add(manifest ?? '');
    }
  } finally {
    stop.abort();
  }
  expect(await approving).toBeGreaterThan(0);
  expect(seen.size).toBeGreaterThan(1);
});

test('300 idle keep-alive connections through nginx do not stop a visitor', async ({ page }) => {
  const { hostname, port } = new URL(nginx);
  const crowd: Socket[] = [];
  try {
    for (let index = 0; index < 300; index++) {
      const socket = connect(Number(port), hostname);
      crowd.push(socket);
      socket.on('error', () => {});
      await once(socket, 'connect');
      socket.write(`GET /api/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`);
      await once(socket, 'data');
    }
    const health = await api(nginx, '/api/health');
    expect(health.status).toBe(200);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const imagesButton = page.getByRole('button', { name: 'Images', exact: true });
    await page.getByRole('heading', { level: 1 }).hover();
    await imagesButton.click();
    await expect(imagesButton).toHaveAttribute('aria-pressed', 'true');
  } finally {
    for (const socket of crowd) socket.destroy();
  }
});
