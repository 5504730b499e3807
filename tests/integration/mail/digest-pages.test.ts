import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { digestId, previousWeek, weekRange } from '../../../contract/digest.ts';
import { PublishedDigestsSchema } from '../../../contract/digest-page.ts';
import { socialImagePath } from '../../../contract/social-image.ts';
import { loadConfig } from '../../../server/config.ts';
import { threads } from '../../../server/db/schema.ts';
import { digests } from '../../../server/db/schema-messages.ts';
import { exportPublishedDigests } from '../../../server/publisher/export/export-digests.ts';
import { publishDueDigest } from '../../../server/services/digest/publish-digest.ts';
import { startApp } from '../auth/helpers.ts';
import { insertThreads, threadRows } from '../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The digest's page and preview (decision 057): what the export hands the site, and its picture.
let app: FastifyInstance;
let base: string;
const last = previousWeek(new Date());
const id = digestId(last);

beforeAll(async () => {
  ({ app, base } = await startApp());
});
afterAll(() => app.close());

/** Three threads approved last week, a day apart, and the digest published with a note. */
async function publishedDigest(note: string): Promise<string[]> {
  const { db } = await testDatabase();
  await insertThreads(threadRows(3));
  const rows = await db.select({ id: threads.id }).from(threads).orderBy(threads.shortcode);
  const { start, end } = weekRange(last);
  for (const [index, row] of rows.entries())
    await db
      .update(threads)
      .set({ decidedAt: new Date(start.getTime() + (index + 1) * 86_400_000) })
      .where(eq(threads.id, row.id));
  await db.insert(digests).values({ id, year: last.year, week: last.week, note });
  const config = loadConfig({ DIGEST_HOLD_HOURS: '0' });
  expect(await publishDueDigest({ db, config }, new Date(end.getTime() + 1))).toMatchObject({
    id,
    published: true,
    threads: 3,
  });
  return rows.map((row) => row.id);
}

beforeEach(async () => resetDatabase(await testDatabase()));

test(
  'the export hands the site each published digest with its note and its still-approved threads, in order',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'ct-digests-')), 'site-data', 'digests.json');
    expect(await exportPublishedDigests(db, file, {})).toEqual({ count: 0, changed: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual([]);
    // A week with nothing approved is published, but has no page (nor picture).
    const { end } = weekRange({ year: 2026, week: 10 });
    await db.insert(digests).values({ id: '2026-10', year: 2026, week: 10 });
    await db.update(digests).set({ threadIds: [], publishedAt: end }).where(eq(digests.id, '2026-10'));
    expect(await exportPublishedDigests(db, file, {})).toEqual({ count: 0, changed: false });
    expect((await fetch(`${base}${socialImagePath('digest', '2026-10')}`)).status).toBe(404);

    const ids = await publishedDigest('Grids, then type.');
    // A draft of this week is not exported; a thread removed since leaves its digest.
    await db.insert(digests).values({ id: '2099-01', year: 2099, week: 1 });
    const [removed] = ids;
    await db
      .update(threads)
      .set({ status: 'removed' })
      .where(eq(threads.id, removed ?? ''));
    expect(await exportPublishedDigests(db, file, {})).toEqual({ count: 1, changed: true });
    const [exported, ...more] = PublishedDigestsSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(more).toEqual([]);
    expect(exported).toMatchObject({ id, year: last.year, week: last.week, note: 'Grids, then type.' });
    const { threadIds } = (await db.select().from(digests).where(eq(digests.id, id)))[0] ?? { threadIds: [] };
    expect(exported?.cards.map((card) => card.id)).toEqual(threadIds?.filter((thread) => thread !== removed));
    expect(exported?.cards).toHaveLength(2);
    // The same content again is no change (no render, no deploy).
    expect(await exportPublishedDigests(db, file, {})).toEqual({ count: 1, changed: false });
  },
);

test("a published digest's preview picture is drawn; a draft's, a malformed or unknown week's are not", async () => {
  await publishedDigest('');
  const response = await fetch(`${base}${socialImagePath('digest', id)}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  const png = Buffer.from(await response.arrayBuffer());
  expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });

  const { db } = await testDatabase();
  await db.insert(digests).values({ id: '2099-01', year: 2099, week: 1 });
  for (const key of ['2099-01', '2026-54', 'week-1', '2001-01']) {
    const answer = await fetch(`${base}${socialImagePath('digest', key)}`);
    expect(answer.status, key).toBe(404);
  }
});
