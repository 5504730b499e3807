import { eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { threads } from '../../../../server/db/schema.ts';
import { api, signInCurator, startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// Decision 025: approved threads' pictures behind a stable address, refreshed before their signed
// Threads address expires (threads-api.md section 10, media URLs expire). The simulator's media
// addresses live 20 minutes here, inside the 30-minute refresh margin.
const MINUTE = 60_000;
let now = Date.now();
let app: FastifyInstance;
let base: string;
let admin: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  now = Date.now();
  ({ app, base } = await startApp(
    {
      CURATION_KEYWORDS: 'typography',
      CURATION_TAGS: 'NoPostHasThisTag',
      SIMULATED_MEDIA_TTL_SECONDS: '1200',
    },
    { simulatedClock: () => now },
  ));
  admin = await signInCurator(base);
  const response = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  expect(response.status).toBe(200);
});
afterEach(() => app.close());

/** A media address as this app serves it (the simulator names the configured public origin). */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${base}${parsed.pathname}${parsed.search}`;
};

/** Approves `count` found threads with a picture; returns their rows. */
async function approvedWithPictures(count: number) {
  const { db } = await testDatabase();
  const rows = (await db.select().from(threads).where(isNotNull(threads.imageUrl))).slice(0, count);
  expect(rows).toHaveLength(count);
  for (const row of rows) {
    const approved = await api(base, '/api/threads/approve', {
      method: 'POST',
      cookie: admin,
      body: { thread_id: row.id },
    });
    expect(approved.status).toBe(200);
  }
  return rows;
}

const stored = async (id: string) => {
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.id, id));
  return row;
};

const media = (id: string) => fetch(`${base}/api/media/${id}`, { redirect: 'manual' });

test(
  'the stable address redirects to a working picture, refreshed once the first address expired',
  { tags: ['engine'] },
  async () => {
    const [thread] = await approvedWithPictures(1);
    if (!thread?.imageUrl) throw new Error('no picture');
    const first = thread.imageUrl;
    expect((await fetch(local(first))).status).toBe(200);

    now += 21 * MINUTE;
    expect((await fetch(local(first))).status).toBe(403);

    const answers = await Promise.all(Array.from({ length: 5 }, () => media(thread.id)));
    const locations = new Set(answers.map((answer) => answer.headers.get('location') ?? ''));
    expect(answers.map((answer) => answer.status)).toEqual([302, 302, 302, 302, 302]);
    expect(locations.size).toBe(1);
    const [second = ''] = locations;
    expect(second).not.toBe(first);
    expect(answers[0]?.headers.get('cache-control')).toMatch(
      /^public, max-age=([0-9]|[1-9]\d|[12]\d\d|300)$/,
    );
    expect(answers[0]?.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const picture = await fetch(local(second));
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/webp');
    const row = await stored(thread.id);
    expect(row?.imageUrl).toBe(second);
    expect(row?.imageExpiresAt?.getTime()).toBe(Math.floor(now / 1000) * 1000 + 1_200_000);
  },
);

test('no picture: a pending thread, an unknown id, and a picture Threads no longer gives answer 404', async () => {
  const { db } = await testDatabase();
  const [pending] = await db.select().from(threads).where(isNotNull(threads.imageUrl));
  if (!pending) throw new Error('no picture');
  const notApproved = await media(pending.id);
  expect(notApproved.status).toBe(404);
  expect(await notApproved.json()).toEqual({ detail: 'This thread has no picture to show.' });
  expect((await media('not-a-thread')).status).toBe(404);
  expect((await media('00000000-0000-4000-8000-000000000000')).status).toBe(404);

  const [thread] = await approvedWithPictures(1);
  if (!thread) throw new Error('no picture');
  // Threads answers code 100, subcode 33 for it now (gone, or unreadable with standard access).
  await db.update(threads).set({ mediaId: '17899999999999999' }).where(eq(threads.id, thread.id));
  // While the stored address still works, it is what the card gets.
  expect((await media(thread.id)).headers.get('location')).toBe(thread.imageUrl);
  // Once it has expired (the server's clock), nothing is left to show.
  await db
    .update(threads)
    .set({ imageExpiresAt: new Date(Date.now() - 1000) })
    .where(eq(threads.id, thread.id));
  const gone = await media(thread.id);
  expect(gone.status).toBe(404);
  expect(await gone.json()).toEqual({ detail: 'This thread has no picture to show.' });
});

test('the refresh-pictures job renews approved pictures that expire soon, and only those', async () => {
  const rows = await approvedWithPictures(2);
  now += 21 * MINUTE;
  const outcome = await app.runJob('refresh-pictures', 'admin');
  expect(outcome).toEqual({ ran: true, result: { refreshed: 2, lost: 0, failed: 0 } });
  for (const row of rows) {
    const renewed = await stored(row.id);
    expect(renewed?.imageUrl).not.toBe(row.imageUrl);
    expect((await fetch(local(renewed?.imageUrl ?? ''))).status).toBe(200);
  }
  // Pending threads' pictures are not the job's: only approved ones are kept working.
  const { db } = await testDatabase();
  const pending = await db.select().from(threads).where(eq(threads.status, 'pending'));
  expect(
    pending.filter((row) => row.imageUrl).every((row) => (row.imageExpiresAt?.getTime() ?? 0) < now),
  ).toBe(true);
});

test('the deletion sync stores the fresh picture address of the post it reads, so the job need not read it again', async () => {
  const [thread] = await approvedWithPictures(1);
  if (!thread?.imageUrl) throw new Error('no picture');
  now += 21 * MINUTE;
  const run = await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  expect(run.status).toBe(200);
  const row = await stored(thread.id);
  expect(row?.imageUrl).not.toBe(thread.imageUrl);
  expect(row?.imageExpiresAt?.getTime()).toBeGreaterThan(now);
  expect((await fetch(local(row?.imageUrl ?? ''))).status).toBe(200);
});
