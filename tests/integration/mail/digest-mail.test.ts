import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DIGEST_TEXTS } from '../../../contract/digest.ts';
import { loadConfig } from '../../../server/config.ts';
import { gems, threads, users } from '../../../server/db/schema.ts';
import { digests, mailSends, mailSubscribers } from '../../../server/db/schema-messages.ts';
import { INTERRUPTED } from '../../../server/repositories/mail-sends.ts';
import { publishDueDigest } from '../../../server/services/digest/publish-digest.ts';
import { sendQueuedMail } from '../../../server/services/mail/send-queued.ts';
import { smtpTransport } from '../../../server/services/mail/transport.ts';
import { api, startApp } from '../auth/helpers.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { insertThreads, threadRows } from '../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { linkIn, rawHeader, startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.ts';

/** A data folder of its own: config refuses one that holds the project (CI clones it under /tmp). */
const MAIL_TEST_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'ct-mail-test-'));

const ORIGIN = 'http://localhost:4321';
/** Monday of ISO week 2026-49: last week, 2026-48, ran from November 23 to 30. */
const MONDAY = new Date('2026-11-30T12:00:00.000Z');

let inbox: SmtpInbox;
let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  inbox = await startSmtpInbox();
  ({ app, base } = await startApp({ SMTP_URL: inbox.url, DIGEST_HOLD_HOURS: '0' }));
});
afterEach(async () => {
  await app.close();
  await inbox.close();
});

/** The mail services as the jobs run them, against the test inbox. */
async function deps() {
  const { db } = await testDatabase();
  const config = loadConfig({
    PUBLIC_URL: ORIGIN,
    SMTP_URL: inbox.url,
    DIGEST_HOLD_HOURS: '0',
    DATA_DIR: MAIL_TEST_DATA_DIR,
  });
  return { db, config, tokenKey: TEST_SECRETS.tokenKey };
}

/** One run of the send-mail job. */
async function sendMail() {
  const transport = smtpTransport(inbox.url);
  try {
    return await sendQueuedMail({ ...(await deps()), transport });
  } finally {
    transport.close();
  }
}

/** A mailed link, as the test app (which listens on `base`, not on PUBLIC_URL) answers it. */
function onTestApp(link: string): string {
  const url = new URL(link);
  return `${base}${url.pathname}${url.search}`;
}

async function subscribe(email: string): Promise<Response> {
  return api(base, '/api/digest/subscribe', { method: 'POST', body: { email } });
}

/** Four approved threads, three of them decided during week 2026-48 and one the week before. */
async function seedWeek(): Promise<string[]> {
  await insertThreads(threadRows(4));
  const { db } = await testDatabase();
  const rows = await db.select({ id: threads.id }).from(threads).orderBy(threads.shortcode);
  const decided = [
    '2026-11-24T09:00:00Z',
    '2026-11-26T09:00:00Z',
    '2026-11-29T23:00:00Z',
    '2026-11-20T09:00:00Z',
  ];
  for (const [index, row] of rows.entries())
    await db
      .update(threads)
      .set({ decidedAt: new Date(decided[index] ?? '') })
      .where(eq(threads.id, row.id));
  // A member saved the oldest thread of the week: it leads the digest.
  const [member] = await db
    .insert(users)
    .values({ threadsUserId: '1784', threadsUsername: 'saver' })
    .returning();
  await db.insert(gems).values({ userId: member?.id ?? '', threadId: rows[2]?.id ?? '' });
  return rows.map((row) => row.id);
}

test(
  'double opt-in, one digest mail per subscriber however often it runs, and a one-click unsubscribe that deletes the address',
  { tags: ['engine'] },
  async () => {
    // Subscribing twice the same day mails one confirmation; nothing tells whether the address was known.
    for (const email of ['Reader@Example.com', 'reader@example.com']) {
      const response = await subscribe(email);
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ message: DIGEST_TEXTS.checkInbox });
    }
    expect(await sendMail()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(inbox.received).toHaveLength(1);
    const [confirmation] = inbox.received;
    if (!confirmation) throw new Error('no confirmation');
    expect(confirmation.to).toEqual(['reader@example.com']);
    expect(confirmation.mail.subject).toBe('Confirm your Curated Threads weekly digest');
    expect(confirmation.mail.html).toContain('Confirm my subscription');
    const confirmLink = linkIn(confirmation, `${ORIGIN}/api/digest/confirm?`);

    // Before confirming, last week's digest mails nobody.
    const ids = await seedWeek();
    const { db } = await testDatabase();
    // Opening the link only shows the button (a mail scanner confirms nobody); the button's POST confirms.
    const opened = await fetch(onTestApp(confirmLink));
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(`<button type="submit">${DIGEST_TEXTS.confirmButton}</button>`);
    const [before] = await db.select().from(mailSubscribers);
    expect(before?.confirmedAt).toBeNull();
    const confirmed = await fetch(onTestApp(confirmLink), { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(DIGEST_TEXTS.confirmed);

    // The week's digest: published and queued once, however many runs (or instances) ask.
    const first = await publishDueDigest(await deps(), MONDAY);
    expect(first).toEqual({ id: '2026-48', published: true, threads: 3, queued: 1, threadsPost: false });
    expect(await publishDueDigest(await deps(), MONDAY)).toEqual({
      id: '2026-48',
      published: false,
      threads: 3,
      queued: 0,
      threadsPost: false,
    });
    const [digest] = await db.select().from(digests);
    // Most gems first (the oldest of the week has one), then newest; the thread of the week before left out.
    expect(digest?.threadIds).toEqual([ids[2], ids[0], ids[1]]);

    expect(await sendMail()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await sendMail()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(inbox.received).toHaveLength(2);
    const mail = inbox.received[1];
    if (!mail) throw new Error('no digest');
    expect(mail.mail.subject).toBe("Curated Threads: the week's best, 2026-48");
    expect(mail.mail.text).toContain(`${ORIGIN}/thread/${ids[2]}`);
    expect(mail.mail.text).toContain(`${ORIGIN}/digest/2026-48`);
    expect(mail.mail.html).toContain('<ol>');
    const unsubscribe = linkIn(mail, `${ORIGIN}/api/digest/unsubscribe?`);
    expect(rawHeader(mail, 'List-Unsubscribe')).toBe(`<${unsubscribe}>`);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // RFC 8058: the mail app posts from no page; the signed link is the defence.
    const oneClick = await fetch(onTestApp(unsubscribe), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain(DIGEST_TEXTS.unsubscribed);
    expect(await db.select().from(mailSubscribers)).toEqual([]);
    // The send log keeps what was sent, with no address left in it.
    const log = await db.select().from(mailSends).orderBy(mailSends.id);
    expect(log.map((row) => [row.kind, row.status, row.subscriberId])).toEqual([
      ['confirm', 'sent', null],
      ['digest', 'sent', null],
    ]);
    // A second click is still answered (the address is gone either way).
    expect((await fetch(onTestApp(unsubscribe), { method: 'POST' })).status).toBe(200);
  },
);

test('a forged or cut link does nothing and says so', async () => {
  expect((await subscribe('someone@example.com')).status).toBe(202);
  await sendMail();
  const link = new URL(
    linkIn(inbox.received[0] ?? { to: [], mail: {} as never }, `${ORIGIN}/api/digest/confirm?`),
  );
  const forged = new URL(link);
  forged.searchParams.set('t', 'A'.repeat(43));
  const refused = await fetch(onTestApp(forged.toString()), { method: 'POST' });
  expect(refused.status).toBe(400);
  expect(await refused.text()).toContain(DIGEST_TEXTS.badLink);
  // A confirm link cannot unsubscribe: each purpose has its own signature.
  const wrongPurpose = onTestApp(link.toString()).replace('/confirm?', '/unsubscribe?');
  expect((await fetch(wrongPurpose, { method: 'POST' })).status).toBe(400);
  const cutLink = `${base}/api/digest/confirm?s=${link.searchParams.get('s') ?? ''}`;
  const cut = await fetch(cutLink, { method: 'POST' });
  expect(cut.status).toBe(400);
  // Opened in a browser, a cut link says so in words, with no button that could only fail.
  const opened = await fetch(cutLink);
  expect(opened.status).toBe(400);
  expect(opened.headers.get('content-type')).toContain('text/html');
  const page = await opened.text();
  expect(page).toContain(DIGEST_TEXTS.badLink);
  expect(page).not.toContain('<button');
  const { db } = await testDatabase();
  const [row] = await db.select().from(mailSubscribers);
  expect(row?.confirmedAt).toBeNull();
});

test('a refused message is tried again later; one interrupted mid-send is never sent twice', async () => {
  inbox.refuseNext(1);
  expect((await subscribe('later@example.com')).status).toBe(202);
  expect(await sendMail()).toEqual({ sent: 0, retried: 1, failed: 0 });
  const { db } = await testDatabase();
  const [waiting] = await db.select().from(mailSends);
  expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
  expect(waiting?.lastError).toContain('Try again later');
  expect(waiting?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  // Not due yet: nothing is sent until its time comes.
  expect(await sendMail()).toEqual({ sent: 0, retried: 0, failed: 0 });
  await db.update(mailSends).set({ nextAttemptAt: sql`now()` });
  expect(await sendMail()).toEqual({ sent: 1, retried: 0, failed: 0 });
  expect(inbox.received).toHaveLength(1);

  // A process that stopped after claiming a message: once its lease is over, it is given up.
  expect((await subscribe('interrupted@example.com')).status).toBe(202);
  await db
    .update(mailSends)
    .set({ status: 'sending', leaseUntil: sql`now() - interval '1 minute'` })
    .where(eq(mailSends.status, 'queued'));
  expect(await sendMail()).toEqual({ sent: 0, retried: 0, failed: 1 });
  const failed = await db.select().from(mailSends).where(eq(mailSends.status, 'failed'));
  expect(failed.map((row) => row.lastError)).toEqual([INTERRUPTED]);
  expect(inbox.received).toHaveLength(1);
});

test('two senders at once send each message once', { tags: ['engine'] }, async () => {
  for (let i = 0; i < 6; i++) expect((await subscribe(`reader${i}@example.com`)).status).toBe(202);
  const runs = await Promise.all([sendMail(), sendMail()]);
  expect(runs[0].sent + runs[1].sent).toBe(6);
  expect(inbox.received.map((item) => item.to[0]).sort()).toEqual(
    Array.from({ length: 6 }, (_, i) => `reader${i}@example.com`).sort(),
  );
});

test('bad addresses are a 400 naming the field; without SMTP_URL nobody can subscribe', async () => {
  for (const email of ['', 'no-at-sign', 'a@b', `${'x'.repeat(250)}@example.com`, 'a b@example.com']) {
    const response = await subscribe(email);
    expect(response.status, email).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/^email: /);
  }
  const missing = await api(base, '/api/digest/subscribe', { method: 'POST', body: {} });
  expect(missing.status).toBe(400);

  const { app: noMail, base: noMailBase } = await startApp({});
  try {
    const refused = await api(noMailBase, '/api/digest/subscribe', {
      method: 'POST',
      body: { email: 'reader@example.com' },
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ detail: DIGEST_TEXTS.noMail });
  } finally {
    await noMail.close();
  }
  const { db } = await testDatabase();
  expect(await db.select().from(mailSubscribers)).toEqual([]);
});

test("the site's form subscribes without JavaScript and gets a page in words", async () => {
  const response = await fetch(`${base}/api/digest/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ email: 'Form@Example.com' }).toString(),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/html');
  expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  const page = await response.text();
  expect(page).toContain(`<h1>${DIGEST_TEXTS.subscribeTitle}</h1>`);
  expect(page).toContain(DIGEST_TEXTS.checkInbox);
  const { db } = await testDatabase();
  expect((await db.select().from(mailSubscribers)).map((row) => row.email)).toEqual(['form@example.com']);
  // From another site, the form is refused like any other write.
  const forged = await fetch(`${base}/api/digest/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
    body: new URLSearchParams({ email: 'victim@example.com' }).toString(),
  });
  expect(forged.status).toBe(403);
});
