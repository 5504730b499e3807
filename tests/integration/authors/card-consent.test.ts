import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AuthorCardsResult, AuthorOverview } from '../../../contract/authors.ts';
import type { ModerationLogPage } from '../../../contract/moderation-log.ts';
import type { CataloguePage } from '../../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { auditLog, cardConsents, threads } from '../../../server/db/schema.ts';
import { exportCatalogue } from '../../../server/publisher/export/export-catalogue.ts';
import type { ContentChange } from '../../../server/services/content-change.ts';
import { createThreadPages } from '../../../server/services/thread-pages/thread-page.ts';
import { ownPostsFor, postsMatchingKeyword } from '../../../server/simulator/seed-posts.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { signRequest } from '../../../server/threads/signed-request.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { api, approvedMember, signIn, signInCurator, startApp } from '../auth/helpers.ts';
import { attributeAsSearchWould } from '../helpers/attribution.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { allPending } from '../helpers/review-queue.ts';

// Issue 35 part 1, decision 070: under PUBLIC_POST_DISPLAY=embed a post is shown in public through
// Threads' embed, without our copy, unless its author chose 'Show my posts as cards'.
let app: FastifyInstance;
let base: string;
let admin: string;
let changes: ContentChange[];
let folder: string;

const KEYWORD = 'typography';
const SEARCHED = postsMatchingKeyword(KEYWORD)[0];
const AUTHOR = SEARCHED?.username ?? '';

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({
    CURATION_KEYWORDS: KEYWORD,
    CURATION_TAGS: '',
    PUBLIC_POST_DISPLAY: 'embed',
  }));
  changes = [];
  app.onContentChanged((change) => changes.push(change));
  admin = await signInCurator(base);
  folder = await mkdtemp(path.join(tmpdir(), 'card-consent-'));
});
afterEach(async () => {
  await app.close();
  await rm(folder, { recursive: true, force: true });
});

const send = (cookie: string, method: 'POST' | 'DELETE', route: string, body?: unknown) =>
  api(base, route, { method, cookie, ...(body === undefined ? {} : { body }) });

/** The admin's run finds the author's newest post, and the admin approves it. */
async function approvedSearchFind(): Promise<string> {
  expect((await send(admin, 'POST', '/api/admin/refresh')).status).toBe(200);
  const found = (await allPending(base, admin)).find((thread) => thread.handle === `@${AUTHOR}`);
  if (!found) throw new Error(`the run found no post of @${AUTHOR}`);
  expect((await send(admin, 'POST', '/api/threads/approve', { thread_id: found.id })).status).toBe(200);
  return found.id;
}

async function publicCard(id: string): Promise<ThreadCard | null> {
  const { db } = await testDatabase();
  return createThreadPages(db, { display: 'embed' }).card(id);
}

/** The catalogue as an embed-mode export writes it: the first page of every card. */
async function exportedCards(): Promise<ThreadCard[]> {
  const { db } = await testDatabase();
  await exportCatalogue(db, {
    catalogueDir: folder,
    sampleCatalogueDir: path.join(folder, 'no-sample'),
    refreshIntervalMinutes: 60,
    postDisplay: 'embed',
  });
  const page = JSON.parse(
    await readFile(path.join(folder, 'pages', 'all', '1.json'), 'utf8'),
  ) as CataloguePage;
  return page.cards;
}

async function setCards(cookie: string, shown: boolean): Promise<AuthorCardsResult> {
  const response = await send(cookie, shown ? 'POST' : 'DELETE', '/api/authors/me/cards');
  expect(response.status).toBe(200);
  return (await response.json()) as AuthorCardsResult;
}

test("a found post is shown through Threads' embed, with no copy, until its author chooses cards", async () => {
  expect(AUTHOR).not.toBe('');
  const id = await approvedSearchFind();
  const embedded = await publicCard(id);
  expect(embedded).toMatchObject({
    display: 'embed',
    handle: `@${AUTHOR}`,
    author: `@${AUTHOR}`,
    content: '',
    image: null,
    likes: null,
    replies: null,
  });
  expect((await exportedCards()).find((card) => card.id === id)).toEqual(embedded);

  const author = await signIn(base, AUTHOR);
  const before = await api(base, '/api/authors/me', { cookie: author });
  expect((await before.json()) as AuthorOverview).toMatchObject({
    shown_as_cards: false,
    post_display: 'embed',
  });

  changes = [];
  expect(await setCards(author, true)).toEqual({ shown_as_cards: true, changed_on_site: 1 });
  expect(changes).toContain('threads');
  const card = await publicCard(id);
  expect(card?.display).toBeUndefined();
  expect(card?.content).toBe(SEARCHED?.text);
  // The change log saw it: the next export rewrites the card, not only the manifest's dates.
  expect((await exportedCards()).find((item) => item.id === id)).toEqual(card);
  // Given twice, nothing changes and nothing is rebuilt.
  changes = [];
  expect(await setCards(author, true)).toEqual({ shown_as_cards: true, changed_on_site: 0 });
  expect(changes).toEqual([]);

  const { db } = await testDatabase();
  const audited = await db.select().from(auditLog).where(eq(auditLog.action, 'author.cards_on'));
  expect(audited).toHaveLength(1);

  expect(await setCards(author, false)).toEqual({ shown_as_cards: false, changed_on_site: 1 });
  expect((await publicCard(id))?.display).toBe('embed');
  expect((await exportedCards()).find((item) => item.id === id)?.content).toBe('');
  expect(await db.select().from(cardConsents)).toEqual([]);
});

test('a post stored after the consent, by search or by its author, is shown as a card from the start', async () => {
  const author = await signIn(base, AUTHOR);
  await setCards(author, true);
  const { db } = await testDatabase();
  const later = await attributeAsSearchWould(
    db,
    `https://www.threads.com/@${AUTHOR.toUpperCase()}/post/Later1xyz`,
  );
  expect(later.shownAsCard).toBe(true);
  const other = await attributeAsSearchWould(db, 'https://www.threads.com/@someone.else/post/Other1xyz');
  expect(other.shownAsCard).toBe(false);
});

test("a member's submission asks for the consent: ticked, their own post is a card; unticked, nothing is given", async () => {
  const mallory = await approvedMember(base, 'mallory');
  const [own, second] = ownPostsFor('mallory');
  if (!own || !second) throw new Error('mallory has no own posts');
  const submitted = await send(mallory, 'POST', '/api/dashboard/manual-submission', {
    thread_url: `https://www.threads.com/@mallory/post/${own.shortcode}`,
    show_as_cards: true,
  });
  expect(submitted.status).toBe(201);
  const { db } = await testDatabase();
  const [row] = await db.select().from(threads).where(eq(threads.shortcode, own.shortcode));
  expect(row).toMatchObject({ username: 'mallory', shownAsCard: true });
  expect((await db.select().from(cardConsents)).map((consent) => consent.username)).toEqual(['mallory']);

  const henry = await approvedMember(base, 'henry');
  const [henrys] = ownPostsFor('henry');
  const plain = await send(henry, 'POST', '/api/dashboard/manual-submission', {
    thread_url: `https://www.threads.com/@henry/post/${henrys?.shortcode ?? ''}`,
  });
  expect(plain.status).toBe(201);
  const [henryRow] = await db
    .select()
    .from(threads)
    .where(eq(threads.shortcode, henrys?.shortcode ?? ''));
  expect(henryRow?.shownAsCard).toBe(false);

  // Not a boolean: a clear refusal, nothing stored.
  const refused = await send(henry, 'POST', '/api/dashboard/manual-submission', {
    thread_url: `https://www.threads.com/@mallory/post/${second.shortcode}`,
    show_as_cards: 'yes',
  });
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { detail: string }).detail).toContain(
    'show_as_cards must be true or false',
  );
});

test("a data deletion request withdraws the author's choice of cards: their posts fall back to the embed", async () => {
  const author = await signIn(base, AUTHOR);
  await setCards(author, true);
  const { db } = await testDatabase();
  const stored = await attributeAsSearchWould(db, `https://www.threads.com/@${AUTHOR}/post/Gone1xyz`);
  expect(stored.shownAsCard).toBe(true);
  const signedRequest = signRequest(
    { algorithm: 'HMAC-SHA256', user_id: simulatedUserId(AUTHOR), issued_at: Math.floor(Date.now() / 1000) },
    SIMULATED_APP.secret,
  );
  const response = await fetch(`${base}/api/auth/data-deletion`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ signed_request: signedRequest }),
  });
  expect(response.status).toBe(200);
  expect(await db.select().from(cardConsents)).toEqual([]);
  const [row] = await db.select().from(threads).where(eq(threads.id, stored.id));
  expect(row?.shownAsCard).toBe(false);
});

test('the public moderation log quotes no words of a post shown through the embed, until its author chooses cards', async () => {
  const id = await approvedSearchFind();
  const entry = async () => {
    const response = await api(base, '/api/moderation');
    expect(response.status).toBe(200);
    return ((await response.json()) as ModerationLogPage).entries.find((item) => item.id === id);
  };
  expect(await entry()).toMatchObject({ handle: `@${AUTHOR}`, excerpt: null });
  await setCards(await signIn(base, AUTHOR), true);
  // The log's cache is cleared by the change the consent announced: the excerpt is back.
  const excerpt = (await entry())?.excerpt ?? '';
  expect(excerpt).not.toBe('');
  expect(SEARCHED?.text.replace(/\s+/g, ' ')).toContain(excerpt.replace(/…$/, ''));
});
