import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { ModerationLogPage } from '../../../contract/moderation-log.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { buildSite } from '../../../server/publisher/build/build-site.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { api, signInCurator, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// A server that publishes its own site: a rejection clears the log's cache but rebuilds nothing (it
// changes no page); an approval does both.
let work: string;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  work = await mkdtemp(path.join(tmpdir(), 'ct-moderation-'));
  const siteDir = path.join(work, 'site');
  await buildSite({ ...TEST_SITE, siteDir }, { capture: true });
  ({ app, base } = await startApp(
    {
      SITE_DIR: siteDir,
      DATA_DIR: path.join(work, 'data'),
      CURATION_KEYWORDS: 'typography',
      CURATION_TAGS: '',
    },
    { publishSite: true },
  ));
});

afterAll(async () => {
  await app.close();
  await rm(work, { recursive: true, force: true });
});

async function logIds(): Promise<string[]> {
  const response = await api(base, '/api/moderation');
  return ((await response.json()) as ModerationLogPage).entries.map((entry) => entry.id);
}

test('a rejection shows in the log at once without a site rebuild; an approval asks for one', async () => {
  const admin = await signInCurator(base);
  expect((await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin })).status).toBe(200);
  await app.publisher.settled();
  const queue = await api(base, '/api/threads/pending-review', { cookie: admin });
  const [first, second] = ((await queue.json()) as { threads: ReviewThread[] }).threads;
  if (!first || !second || !app.publisher) throw new Error('a queue of two and a publisher are needed');
  expect(await logIds()).toEqual([]); // cached now

  const requested = vi.spyOn(app.publisher, 'request');
  const body = { thread_id: first.id, reason: 'Not about design or UI' };
  expect((await api(base, '/api/threads/reject', { method: 'POST', cookie: admin, body })).status).toBe(200);
  expect(await logIds()).toEqual([first.id]);
  expect(requested).not.toHaveBeenCalled();

  const approval = { thread_id: second.id };
  expect(
    (await api(base, '/api/threads/approve', { method: 'POST', cookie: admin, body: approval })).status,
  ).toBe(200);
  expect(await logIds()).toEqual([second.id, first.id]);
  expect(requested).toHaveBeenCalledTimes(1);
  await app.publisher.settled();
});
