import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { NOTICE_MAIL_TEXTS } from '../../../contract/notice-mail.ts';
import { mailSends, noticeMailAddresses } from '../../../server/db/schema-messages.ts';
import { api, approvedMember, signInCurator } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { linkIn, rawHeader } from '../helpers/smtp-inbox.ts';
import {
  decide,
  noticeMailOf,
  onTestApp,
  ORIGIN,
  saveNoticeMail,
  sendMail,
  startMailWorld,
  submit,
  type MailWorld,
} from './notice-mail-setup.ts';

// A member's notices by e-mail (issue 22, decision 058), end to end: the address given on the
// profile, confirmed through the mailed link, and a declined submission's notice arriving by mail.
let world: MailWorld;
let admin: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  world = await startMailWorld({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: '' });
  admin = await signInCurator(world.base);
});
afterEach(async () => {
  await world.app.close();
  await world.inbox.close();
});

/** A member with a confirmed address for notices, through the mail's own link. */
async function confirmedMember(name: string): Promise<string> {
  const { base, inbox } = world;
  const cookie = await approvedMember(base, name);
  expect((await saveNoticeMail(base, cookie, { email: `${name}@example.com`, enabled: true })).status).toBe(
    200,
  );
  await sendMail(inbox);
  const mail = inbox.received.at(-1);
  if (!mail) throw new Error('no confirmation');
  const link = linkIn(mail, `${ORIGIN}/api/notice-mail/confirm?`);
  expect((await fetch(onTestApp(base, link), { method: 'POST' })).status).toBe(200);
  return cookie;
}

test('an address given on the profile is confirmed through its mail, and a declined submission arrives with its reason', async () => {
  const { base, inbox } = world;
  const alice = await approvedMember(base, 'alice');
  expect(await noticeMailOf(base, alice)).toEqual({
    available: true,
    address: null,
    enabled: false,
    confirmed: false,
  });
  // Saved twice the same day: one confirmation mail.
  for (const email of [' Alice@Example.com ', 'alice@example.com']) {
    const saved = await saveNoticeMail(base, alice, { email, enabled: true });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({
      available: true,
      address: 'alice@example.com',
      enabled: true,
      confirmed: false,
      message: NOTICE_MAIL_TEXTS.checkInbox,
    });
  }
  // Not confirmed yet: a decision queues no mail.
  const early = await submit(base, alice, admin, 'MailEarly1');
  await decide(base, admin, '/api/threads/reject', { thread_id: early, reason: 'Too early' });
  expect(await sendMail(inbox)).toEqual({ sent: 1, retried: 0, failed: 0 });
  expect(inbox.received).toHaveLength(1);
  const [confirmation] = inbox.received;
  if (!confirmation) throw new Error('no confirmation');
  expect(confirmation.to).toEqual(['alice@example.com']);
  expect(confirmation.mail.subject).toBe('Confirm your address for Curated Threads notices');
  const link = linkIn(confirmation, `${ORIGIN}/api/notice-mail/confirm?`);

  // Opening the link shows a button and confirms nothing; its POST confirms.
  const opened = await fetch(onTestApp(base, link));
  expect(opened.status).toBe(200);
  expect(await opened.text()).toContain(`<button type="submit">${NOTICE_MAIL_TEXTS.confirmButton}</button>`);
  expect((await noticeMailOf(base, alice)).confirmed).toBe(false);
  const confirmed = await fetch(onTestApp(base, link), { method: 'POST' });
  expect(confirmed.status).toBe(200);
  expect(await confirmed.text()).toContain(NOTICE_MAIL_TEXTS.confirmed);
  expect((await noticeMailOf(base, alice)).confirmed).toBe(true);

  const thread = await submit(base, alice, admin, 'MailDeclined1');
  await decide(base, admin, '/api/threads/reject', { thread_id: thread, reason: 'Not about design' });
  expect(await sendMail(inbox)).toEqual({ sent: 1, retried: 0, failed: 0 });
  expect(await sendMail(inbox)).toEqual({ sent: 0, retried: 0, failed: 0 });
  const notice = inbox.received[1];
  if (!notice) throw new Error('no notice mail');
  expect(notice.to).toEqual(['alice@example.com']);
  expect(notice.mail.subject).toBe('Your submission was declined');
  expect(notice.mail.text).toContain('Your submission was declined: Not about design');
  // The post's own link: the handle typed into the submission names no one (decision 063).
  expect(notice.mail.text).toContain('https://www.threads.com/t/MailDeclined1');
  expect(notice.mail.text).toContain(`${ORIGIN}/`);
  expect(notice.mail.html).toContain('Not about design');
  const unsubscribe = linkIn(notice, `${ORIGIN}/api/notice-mail/unsubscribe?`);
  expect(rawHeader(notice, 'List-Unsubscribe')).toBe(`<${unsubscribe}>`);
  expect(rawHeader(notice, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

  // RFC 8058's one click, from no page: the address is deleted, and the log keeps no trace of it.
  const oneClick = await fetch(onTestApp(base, unsubscribe), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status).toBe(200);
  expect(await oneClick.text()).toContain(NOTICE_MAIL_TEXTS.unsubscribed);
  const { db } = await testDatabase();
  expect(await db.select().from(noticeMailAddresses)).toEqual([]);
  const log = await db.select().from(mailSends).orderBy(mailSends.id);
  expect(log.map((row) => [row.kind, row.status, row.noticeAddressId])).toEqual([
    ['notice_confirm', 'sent', null],
    ['notice', 'sent', null],
  ]);
  expect((await noticeMailOf(base, alice)).address).toBeNull();
});

test('Undo before sending sends nothing; mail turned off before sending is not sent, and says why', async () => {
  const { base, inbox } = world;
  const alice = await confirmedMember('alice');
  const received = inbox.received.length;
  const { db } = await testDatabase();

  const undone = await submit(base, alice, admin, 'MailUndo1');
  await decide(base, admin, '/api/threads/reject', { thread_id: undone, reason: 'Oops' });
  expect(await db.select().from(mailSends).where(eq(mailSends.kind, 'notice'))).toHaveLength(1);
  await decide(base, admin, '/api/threads/undo', { thread_ids: [undone] });
  expect(await db.select().from(mailSends).where(eq(mailSends.kind, 'notice'))).toEqual([]);
  expect(await sendMail(inbox)).toEqual({ sent: 0, retried: 0, failed: 0 });

  // Queued while on, turned off before the job ran: given up, with the reason in the log.
  const later = await submit(base, alice, admin, 'MailOff1');
  await decide(base, admin, '/api/threads/approve', { thread_id: later });
  const off = await saveNoticeMail(base, alice, { email: 'alice@example.com', enabled: false });
  expect(await off.json()).toMatchObject({
    enabled: false,
    confirmed: true,
    message: NOTICE_MAIL_TEXTS.saved,
  });
  expect(await sendMail(inbox)).toEqual({ sent: 0, retried: 0, failed: 1 });
  const [given] = await db.select().from(mailSends).where(eq(mailSends.kind, 'notice'));
  expect(given?.lastError).toBe('the member turned notice mail off before it was sent');
  // While off, a decision queues nothing at all.
  const third = await submit(base, alice, admin, 'MailOff2');
  await decide(base, admin, '/api/threads/reject', { thread_id: third, reason: 'No' });
  expect(await db.select().from(mailSends).where(eq(mailSends.kind, 'notice'))).toHaveLength(1);
  expect(inbox.received).toHaveLength(received);

  // Removed: the address is deleted, not kept.
  const removed = await api(base, '/api/user/notice-mail', { method: 'DELETE', cookie: alice });
  expect(removed.status).toBe(200);
  expect(await removed.json()).toMatchObject({ address: null, message: NOTICE_MAIL_TEXTS.removed });
  expect(await db.select().from(noticeMailAddresses)).toEqual([]);
});

test('a new address must be confirmed again, and the old one’s link no longer works', async () => {
  const { base, inbox } = world;
  const alice = await confirmedMember('alice');
  const oldLink = linkIn(
    inbox.received[0] ?? { to: [], mail: {} as never },
    `${ORIGIN}/api/notice-mail/confirm?`,
  );
  const changed = await saveNoticeMail(base, alice, { email: 'new@example.com', enabled: true });
  expect(await changed.json()).toMatchObject({ address: 'new@example.com', confirmed: false });
  const stale = await fetch(onTestApp(base, oldLink), { method: 'POST' });
  expect(stale.status).toBe(400);
  expect(await stale.text()).toContain(NOTICE_MAIL_TEXTS.badLink);
  expect(await sendMail(inbox)).toEqual({ sent: 1, retried: 0, failed: 0 });
  expect(inbox.received.at(-1)?.to).toEqual(['new@example.com']);
});
