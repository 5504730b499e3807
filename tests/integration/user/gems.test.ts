import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { GEM_TEXTS, type GemIds, type GemList, type GemState } from '../../../contract/gems.ts';
import type { OwnProfile, PublicProfile } from '../../../contract/profile.ts';
import { ThreadCardSchema } from '../../../contract/thread-card.ts';
import { gems, threads, users } from '../../../server/db/schema.ts';
import { exportPublishedProfiles } from '../../../server/publisher/export/export-profiles.ts';
import type { ContentChange } from '../../../server/services/content-change.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { api, approvedMember, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

let app: FastifyInstance;
let base: string;
const changes: ContentChange[] = [];
beforeAll(async () => {
  ({ app, base } = await startApp());
  app.onContentChanged((change) => changes.push(change));
});
afterAll(() => app.close());
beforeEach(async () => {
  await resetDatabase(await testDatabase());
});

let serial = 0;
/** A stored thread; approved unless told otherwise, posted `minutesAgo` ago. */
async function thread(
  status: 'pending' | 'approved' | 'rejected' | 'hidden' = 'approved',
  extra: { ownerUserId?: string; minutesAgo?: number } = {},
): Promise<string> {
  const { db } = await testDatabase();
  serial++;
  const [row] = await db
    .insert(threads)
    .values({
      shortcode: `GEM${serial}x`,
      source: extra.ownerUserId ? 'user_own' : 'public_search',
      status,
      username: `author${serial}`,
      text: `Thread number ${serial}`,
      permalink: `https://www.threads.com/@author${serial}/post/GEM${serial}x`,
      postedAt: new Date(Date.now() - (extra.minutesAgo ?? serial) * 60_000),
      ownerUserId: extra.ownerUserId ?? null,
    })
    .returning({ id: threads.id });
  if (!row) throw new Error('no thread');
  return row.id;
}

async function setStatus(id: string, status: 'approved' | 'hidden'): Promise<void> {
  const { db } = await testDatabase();
  await db.update(threads).set({ status }).where(eq(threads.id, id));
}

async function userIdOf(username: string): Promise<string> {
  const { db } = await testDatabase();
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.threadsUserId, simulatedUserId(username)));
  if (!row) throw new Error('no user');
  return row.id;
}

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

const save = (cookie: string, id: string) => api(base, `/api/user/gems/${id}`, { method: 'PUT', cookie });
const remove = (cookie: string, id: string) =>
  api(base, `/api/user/gems/${id}`, { method: 'DELETE', cookie });
async function savedIds(cookie: string): Promise<string[]> {
  const answer = await json<GemIds>(await api(base, '/api/user/gems/ids', { cookie }));
  expect(answer.can_save).toBe(true);
  return answer.ids;
}

describe('gems', () => {
  test('a member saves and removes approved threads; both are idempotent and announce the change', async () => {
    const cookie = await approvedMember(base, 'gem_keeper');
    changes.length = 0; // the approval announced itself
    const older = await thread();
    const newer = await thread();

    const first = await save(cookie, older);
    expect(first.status).toBe(200);
    expect(await json<GemState>(first)).toEqual({ thread_id: older, saved: true, count: 1 });
    expect(changes).toEqual(['profiles']);
    // Saving again changes nothing and announces nothing.
    expect(await json<GemState>(await save(cookie, older))).toEqual({
      thread_id: older,
      saved: true,
      count: 1,
    });
    expect(changes).toEqual(['profiles']);
    await save(cookie, newer);
    expect(await savedIds(cookie)).toEqual([newer, older]);

    const list = await json<GemList>(await api(base, '/api/user/gems', { cookie }));
    expect(list.count).toBe(2);
    expect(list.cards.map((card) => card.id)).toEqual([newer, older]);
    for (const card of list.cards) expect(ThreadCardSchema.parse(card)).toEqual(card);

    const removed = await remove(cookie, older);
    expect(await json<GemState>(removed)).toEqual({ thread_id: older, saved: false, count: 1 });
    expect(await json<GemState>(await remove(cookie, older))).toEqual({
      thread_id: older,
      saved: false,
      count: 1,
    });
    expect(changes).toEqual(['profiles', 'profiles', 'profiles']);
    expect(await savedIds(cookie)).toEqual([newer]);
  });

  test('only approved threads can be saved; unknown ids are 404', async () => {
    const cookie = await approvedMember(base, 'gem_picky');
    changes.length = 0;
    for (const status of ['pending', 'rejected', 'hidden'] as const) {
      const response = await save(cookie, await thread(status));
      expect(response.status).toBe(409);
      expect(await json(response)).toEqual({ detail: GEM_TEXTS.notApproved });
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1%27%20or%201%3D1']) {
      const response = await save(cookie, id);
      expect(response.status).toBe(404);
      expect(await json(response)).toEqual({ detail: GEM_TEXTS.threadNotFound });
    }
    expect(await savedIds(cookie)).toEqual([]);
    expect(changes).toEqual([]);
  });

  test('visitors, signed-in users without an approved profile and cross-site requests are refused', async () => {
    const id = await thread();
    expect((await api(base, '/api/user/gems/ids')).status).toBe(401);
    expect((await api(base, `/api/user/gems/${id}`, { method: 'PUT' })).status).toBe(401);
    const pending = await signIn(base, 'gem_waiting');
    await api(base, '/api/user/request-invite', { method: 'POST', cookie: pending });
    // Any signed-in user may ask whether they can save: the site hides the button without a failed call.
    expect(await json(await api(base, '/api/user/gems/ids', { cookie: pending }))).toEqual({
      can_save: false,
      ids: [],
    });
    for (const response of [
      await api(base, '/api/user/gems', { cookie: pending }),
      await save(pending, id),
      await remove(pending, id),
    ]) {
      expect(response.status).toBe(403);
      expect(typeof (await json<{ detail: string }>(response)).detail).toBe('string');
    }
    const member = await approvedMember(base, 'gem_member');
    const crossSite = await api(base, `/api/user/gems/${id}`, {
      method: 'PUT',
      cookie: member,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    const { db } = await testDatabase();
    expect(await db.select().from(gems)).toEqual([]);
    // Admins pass 'member' routes without a profile of their own.
    const admin = await signIn(base, 'admin');
    expect((await save(admin, id)).status).toBe(200);
    expect(await savedIds(admin)).toEqual([id]);
  });

  test('a thread hidden at the source leaves every list and count, and comes back with its thread', async () => {
    const cookie = await approvedMember(base, 'gem_hidden');
    const userId = await userIdOf('gem_hidden');
    const kept = await thread();
    const goes = await thread();
    const ownKept = await thread('approved', { ownerUserId: userId });
    const ownGoes = await thread('approved', { ownerUserId: userId });
    await save(cookie, kept);
    await save(cookie, goes);
    await setStatus(goes, 'hidden');
    await setStatus(ownGoes, 'hidden');

    expect(await savedIds(cookie)).toEqual([kept]);
    expect(await json<GemList>(await api(base, '/api/user/gems', { cookie }))).toMatchObject({
      count: 1,
      cards: [expect.objectContaining({ id: kept })],
    });
    const own = await json<OwnProfile>(await api(base, '/api/user/profile', { cookie }));
    expect(own).toMatchObject({ gems: [kept], gem_count: 1, own_threads: [ownKept], thread_count: 1 });
    const pub = await json<PublicProfile>(await api(base, '/api/user/profile/gem_hidden'));
    expect(pub).toMatchObject({ gems: [kept], gem_count: 1, own_threads: [ownKept], thread_count: 1 });
    // A hidden gem can still be removed; it cannot be saved again until its thread is back.
    expect((await json<GemState>(await remove(cookie, goes))).count).toBe(1);

    expect((await save(cookie, goes)).status).toBe(409);
    await setStatus(goes, 'approved');
    await save(cookie, goes);
    await setStatus(goes, 'hidden');
    await setStatus(goes, 'approved');
    expect(await savedIds(cookie)).toEqual([goes, kept]);
  });

  test(
    'the profile, the public profile and the export carry ids, cards and counts',
    { tags: ['engine'] },
    async () => {
      const cookie = await approvedMember(base, 'gem_shower');
      const userId = await userIdOf('gem_shower');
      const saved = [await thread(), await thread()];
      for (const id of saved) await save(cookie, id);
      const ownOld = await thread('approved', { ownerUserId: userId, minutesAgo: 500 });
      const ownNew = await thread('approved', { ownerUserId: userId, minutesAgo: 5 });
      await thread('pending', { ownerUserId: userId });
      const newestFirst = [...saved].reverse();

      const expected = {
        gems: newestFirst,
        own_threads: [ownNew, ownOld],
        gem_count: 2,
        thread_count: 2,
        gem_cards: newestFirst.map((id) => expect.objectContaining({ id, type: 'text' })),
        thread_cards: [expect.objectContaining({ id: ownNew }), expect.objectContaining({ id: ownOld })],
      };
      expect(await json(await api(base, '/api/user/profile', { cookie }))).toMatchObject(expected);
      const pub = await json<PublicProfile>(await api(base, '/api/user/profile/gem_shower'));
      expect(pub).toMatchObject({ username: 'gem_shower', ...expected });
      for (const card of [...pub.gem_cards, ...pub.thread_cards])
        expect(ThreadCardSchema.parse(card)).toEqual(card);

      // A change clears the public profile cache at once.
      await remove(cookie, saved[0] ?? '');
      expect(await json(await api(base, '/api/user/profile/gem_shower'))).toMatchObject({
        gems: [saved[1]],
        gem_count: 1,
      });

      const { db } = await testDatabase();
      const file = path.join(await mkdtemp(path.join(tmpdir(), 'ct-gems-')), 'profiles.json');
      expect(await exportPublishedProfiles(db, file)).toEqual({ count: 1, changed: true });
      const exported = JSON.parse(await readFile(file, 'utf8')) as PublicProfile[];
      expect(exported).toEqual([
        expect.objectContaining({
          username: 'gem_shower',
          gems: [saved[1]],
          gem_cards: [expect.objectContaining({ id: saved[1], content: expect.any(String) as string })],
          gem_count: 1,
          own_threads: [ownNew, ownOld],
          thread_count: 2,
        }),
      ]);
    },
  );

  test('the export is bounded per list while the counts stay exact', { tags: ['engine'] }, async () => {
    const cookie = await approvedMember(base, 'gem_hoarder');
    const { db } = await testDatabase();
    const ids: string[] = [];
    for (let index = 0; index < 103; index++) ids.push(await thread());
    const userId = await userIdOf('gem_hoarder');
    // Saved a second apart, oldest first.
    await db.insert(gems).values(
      ids.map((threadId, index) => ({
        userId,
        threadId,
        createdAt: new Date(Date.now() - (200 - index) * 1000),
      })),
    );
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'ct-gems-')), 'profiles.json');
    await exportPublishedProfiles(db, file);
    const [profile] = JSON.parse(await readFile(file, 'utf8')) as PublicProfile[];
    expect(profile?.gem_count).toBe(103);
    expect(profile?.gem_cards).toHaveLength(100);
    expect(profile?.gems).toEqual(ids.slice(3).reverse());
    expect((await savedIds(cookie)).length).toBe(103);
  });
});
