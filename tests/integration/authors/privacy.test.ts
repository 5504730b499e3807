import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ModerationLogPage } from '../../../contract/moderation-log.ts';
import { USERNAME_MESSAGES } from '../../../contract/profile.ts';
import { profiles, threads, users } from '../../../server/db/schema.ts';
import { ownPostsFor } from '../../../server/simulator/seed-posts.ts';
import { api, approvedMember, saveProfile, signIn, startApp } from '../auth/helpers.ts';
import { attributeAsSearchWould } from '../helpers/attribution.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The privacy fixes of issue 18 (decision 028): the public log shows no member's own post, and a
// display username cannot pass for another person's Threads handle.
let app: FastifyInstance;
let base: string;
let admin: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' }));
  admin = await signIn(base, 'admin');
});
afterEach(() => app.close());

async function submit(cookie: string, link: string): Promise<string> {
  const response = await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie,
    body: { thread_url: link },
  });
  expect(response.status).toBe(201);
  const { db } = await testDatabase();
  const shortcode = link.split('/').at(-1) ?? '';
  const [thread] = await db.select().from(threads).where(eq(threads.shortcode, shortcode));
  if (!thread) throw new Error(`no thread for ${link}`);
  return thread.id;
}

async function decide(action: 'approve' | 'reject', id: string): Promise<void> {
  const body = action === 'reject' ? { thread_id: id, reason: 'Not about design or UI' } : { thread_id: id };
  expect((await api(base, `/api/threads/${action}`, { method: 'POST', cookie: admin, body })).status).toBe(
    200,
  );
}

async function loggedIds(): Promise<string[]> {
  const response = await api(base, '/api/moderation');
  expect(response.status).toBe(200);
  return ((await response.json()) as ModerationLogPage).entries.map((entry) => entry.id);
}

test("the public log never shows a post submitted by its own author, fetched or not, nor a member's own post", async () => {
  const member = await approvedMember(base, 'lena_member');
  // Her own post, which the API finds with her token (owner set)...
  const [ownPost] = ownPostsFor('lena_member');
  const fetched = await submit(
    member,
    `https://www.threads.com/@lena_member/post/${ownPost?.shortcode ?? ''}`,
  );
  // ...one the API cannot find (only the typed handle says it is hers, in another case)...
  const linkOnly = await submit(member, 'https://www.threads.com/@Lena_Member/post/NotFound1x');
  // ...a stranger's post, submitted but not yet attributed by Threads (decision 063)...
  const unattributed = await submit(member, 'https://www.threads.com/@nobody.yet/post/Unknown1x');
  // ...and a stranger's post a search result attributed.
  const { db } = await testDatabase();
  const stranger = (
    await attributeAsSearchWould(db, 'https://www.threads.com/@stranger.writer/post/Stranger1x')
  ).id;
  const [fetchedRow] = await db.select().from(threads).where(eq(threads.id, fetched));
  expect(fetchedRow?.ownerUserId).not.toBeNull();
  for (const id of [fetched, linkOnly, unattributed, stranger]) await decide('reject', id);

  // The strangers' (newest decision first); the link typed with the submitter's own handle, though
  // it attributes nothing (decision 063), still keeps her post off the log.
  expect(await loggedIds()).toEqual([stranger, unattributed]);

  // Signing in alone (to see 'Is this your post?') changes nothing; becoming a member does: the
  // log then leaves out the posts of theirs, as those of every member.
  await signIn(base, 'stranger.writer');
  expect(await loggedIds()).toEqual([stranger, unattributed]);
  await approvedMember(base, 'stranger.writer');
  const third = (await attributeAsSearchWould(db, 'https://www.threads.com/@third.author/post/Third1x')).id;
  await decide('approve', third);
  expect(await loggedIds()).toEqual([third, unattributed]);
});

test('a post submitted by its own author stays off the log even after the author leaves the members', async () => {
  const member = await approvedMember(base, 'nell_member');
  const own = await submit(member, 'https://www.threads.com/@nell_member/post/NellOwn1x');
  await decide('reject', own);
  expect(await loggedIds()).toEqual([]);
  // The membership ends (the profile is gone); the submission still tells whose post it is.
  const { db } = await testDatabase();
  const [nell] = await db.select().from(users).where(eq(users.threadsUsername, 'nell_member'));
  await db.delete(profiles).where(eq(profiles.userId, nell?.id ?? ''));
  expect(await loggedIds()).toEqual([]);
});

test('a rejected post its author removed leaves the public log', async () => {
  const member = await approvedMember(base, 'mo_member');
  const link = 'https://www.threads.com/@quiet.author/post/Quiet1x';
  const id = await submit(member, link);
  // Threads names its author (a search result); the typed handle alone would make it nobody's.
  const { db } = await testDatabase();
  await attributeAsSearchWould(db, link);
  await decide('reject', id);
  expect(await loggedIds()).toEqual([id]);
  // The author signs in (no invite) and removes it.
  const author = await signIn(base, 'quiet.author');
  expect(
    (await api(base, `/api/authors/me/posts/${id}/remove`, { method: 'POST', cookie: author })).status,
  ).toBe(200);
  const [row] = await db.select().from(threads).where(eq(threads.id, id));
  expect(row).toMatchObject({ status: 'removed', statusBeforeRemoval: 'rejected' });
  expect(await loggedIds()).toEqual([]);
});

test("a display username that is another person's Threads handle is refused, in any case; one's own is allowed", async () => {
  await signIn(base, 'bob_handle_owner');
  const alice = await approvedMember(base, 'alice');
  for (const name of ['bob_handle_owner', 'BOB_Handle_Owner', 'Admin']) {
    const response = await saveProfile(base, alice, name, '');
    const expected = name.toLowerCase() === 'admin' ? 400 : 409;
    expect(response.status).toBe(expected);
    const { detail } = (await response.json()) as { detail: string };
    expect(detail).toContain(expected === 409 ? USERNAME_MESSAGES.threadsHandle : USERNAME_MESSAGES.reserved);
  }
  // The admin's handle, too: /admin2 must not show someone else.
  await signIn(base, 'admin2');
  const taken = await saveProfile(base, alice, 'ADMIN2', '');
  expect(taken.status).toBe(409);
  expect(((await taken.json()) as { detail: string }).detail).toBe(USERNAME_MESSAGES.threadsHandle);

  expect((await saveProfile(base, alice, 'ALICE', 'Mine')).status).toBe(200);
  expect((await saveProfile(base, alice, 'alice_designs', 'Mine')).status).toBe(200);
});

test("an invite request does not take another person's Threads handle as the first display name", async () => {
  const { db } = await testDatabase();
  // Someone signed in as carol_x; a later account whose Threads name is the same (a renamed account
  // here) must not get it as its display name.
  await signIn(base, 'carol_x');
  const other = await signIn(base, 'carol_y');
  await db.update(users).set({ threadsUsername: 'Carol_X' }).where(eq(users.threadsUsername, 'carol_y'));
  const response = await api(base, '/api/user/request-invite', { method: 'POST', cookie: other });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { display_username: string | null }).display_username).toBeNull();
});
