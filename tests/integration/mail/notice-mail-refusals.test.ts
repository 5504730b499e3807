import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { NOTICE_MAIL_TEXTS } from '../../../contract/notice-mail.ts';
import { noticeMailAddresses } from '../../../server/db/schema-messages.ts';
import { mailLinkUrl } from '../../../server/services/mail/links.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { signRequest } from '../../../server/threads/signed-request.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { api, approvedMember, startApp } from '../auth/helpers.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { linkIn } from '../helpers/smtp-inbox.ts';
import {
  noticeMailOf,
  onTestApp,
  ORIGIN,
  saveNoticeMail,
  sendMail,
  startMailWorld,
  type MailWorld,
} from './notice-mail-setup.ts';

// What notices by e-mail refuse (decision 058): links forged, cut or of another purpose, bad
// input, a server without SMTP_URL; and the address goes with the member's account.
let world: MailWorld;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  world = await startMailWorld();
});
afterEach(async () => {
  await world.app.close();
  await world.inbox.close();
});

test('forged, cut and wrong-purpose links are refused with a page in words, and confirm nothing', async () => {
  const { base, inbox } = world;
  const alice = await approvedMember(base, 'alice');
  await saveNoticeMail(base, alice, { email: 'alice@example.com', enabled: true });
  await sendMail(inbox);
  const link = new URL(
    linkIn(inbox.received[0] ?? { to: [], mail: {} as never }, `${ORIGIN}/api/notice-mail/confirm?`),
  );
  const id = link.searchParams.get('s') ?? '';

  const forged = new URL(link);
  forged.searchParams.set('t', 'A'.repeat(43));
  const cut = `${ORIGIN}/api/notice-mail/confirm?s=${id}`;
  // The digest's confirm signature of the same id, and the notice unsubscribe link posted to confirm.
  const digestSigned = mailLinkUrl(new URL(ORIGIN), 'confirm', TEST_SECRETS.tokenKey, id).replace(
    '/api/digest/',
    '/api/notice-mail/',
  );
  const unsubscribeSigned = mailLinkUrl(
    new URL(ORIGIN),
    'notice-unsubscribe',
    TEST_SECRETS.tokenKey,
    id,
  ).replace('/unsubscribe?', '/confirm?');
  for (const bad of [forged.toString(), cut, digestSigned, unsubscribeSigned]) {
    const refused = await fetch(onTestApp(base, bad), { method: 'POST' });
    expect(refused.status, bad).toBe(400);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(await refused.text()).toContain(NOTICE_MAIL_TEXTS.badLink);
  }
  // A confirm link cannot unsubscribe either: the address stays.
  const wrongWay = onTestApp(base, link.toString()).replace('/confirm?', '/unsubscribe?');
  expect((await fetch(wrongWay, { method: 'POST' })).status).toBe(400);
  // Opened in a browser, a cut link says so, with no button that could only fail.
  const opened = await fetch(onTestApp(base, cut));
  expect(opened.status).toBe(400);
  const page = await opened.text();
  expect(page).toContain(NOTICE_MAIL_TEXTS.badLink);
  expect(page).not.toContain('<button');
  expect(await noticeMailOf(base, alice)).toMatchObject({ address: 'alice@example.com', confirmed: false });
});

test('bad input is a 400 with a detail; signed out is refused; nothing is stored', async () => {
  const { base } = world;
  const alice = await approvedMember(base, 'alice');
  const bad: [unknown, string][] = [
    [{ email: 'not an address', enabled: true }, 'e-mail address'],
    [{ email: `${'a'.repeat(250)}@example.com`, enabled: true }, '254'],
    // Issue 34: a NUL answered 500 (PostgreSQL cannot store it); NEL and U+FFFF were stored and mailed.
    [{ email: 'ali\u0000ce@example.com', enabled: true }, 'invisible characters'],
    [{ email: 'ali\u0085ce@example.com', enabled: true }, 'invisible characters'],
    [{ email: 'alice@exam\uFFFFple.com', enabled: true }, 'invisible characters'],
    [{ email: 'alice@example.com' }, 'enabled'],
    [{ email: 'alice@example.com', enabled: 'yes' }, 'enabled'],
    [{ email: 'alice@example.com', enabled: true, extra: 1 }, 'extra'],
    [[], ''],
  ];
  for (const [body, words] of bad) {
    const response = await saveNoticeMail(base, alice, body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    const { detail } = (await response.json()) as { detail: string };
    expect(typeof detail).toBe('string');
    expect(detail).toContain(words);
  }
  expect((await saveNoticeMail(base, '', { email: 'a@example.com', enabled: true })).status).toBe(401);
  expect((await api(base, '/api/user/notice-mail')).status).toBe(401);
  const { db } = await testDatabase();
  expect(await db.select().from(noticeMailAddresses)).toEqual([]);
});

test(
  'saving at once from two tabs keeps one address and queues one confirmation',
  { tags: ['engine'] },
  async () => {
    const { base, inbox } = world;
    const alice = await approvedMember(base, 'alice');
    const answers = await Promise.all(
      [true, false, true].map((enabled) =>
        saveNoticeMail(base, alice, { email: 'alice@example.com', enabled }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const { db } = await testDatabase();
    expect(await db.select().from(noticeMailAddresses)).toHaveLength(1);
    expect(await sendMail(inbox)).toEqual({ sent: 1, retried: 0, failed: 0 });
  },
);

test('deleting the account deletes the address', async () => {
  const { base } = world;
  const alice = await approvedMember(base, 'alice');
  expect((await saveNoticeMail(base, alice, { email: 'alice@example.com', enabled: true })).status).toBe(200);
  const { db } = await testDatabase();
  expect(await db.select().from(noticeMailAddresses)).toHaveLength(1);
  const signed = signRequest(
    { algorithm: 'HMAC-SHA256', user_id: simulatedUserId('alice'), issued_at: Math.floor(Date.now() / 1000) },
    SIMULATED_APP.secret,
  );
  const deleted = await fetch(`${base}/api/auth/data-deletion`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ signed_request: signed }),
  });
  expect(deleted.status).toBe(200);
  expect(await db.select().from(noticeMailAddresses)).toEqual([]);
  // The log keeps the confirmation that was queued, with no way back to the address.
  const log = await db.execute(sql`select notice_address_id from mail_sends`);
  expect((log as unknown as { rows: unknown[] }).rows).toEqual([{ notice_address_id: null }]);
});

test('without SMTP_URL the settings say mail is not set up, and saving answers 503 in words', async () => {
  await world.app.close();
  const { app, base } = await startApp();
  world = { ...world, app };
  const alice = await approvedMember(base, 'alice');
  expect(await noticeMailOf(base, alice)).toEqual({
    available: false,
    address: null,
    enabled: false,
    confirmed: false,
  });
  const refused = await saveNoticeMail(base, alice, { email: 'alice@example.com', enabled: true });
  expect(refused.status).toBe(503);
  expect(await refused.json()).toEqual({ detail: NOTICE_MAIL_TEXTS.noMail });
});
