import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { NOTICE_MAIL_TEXTS } from '../../../contract/notice-mail.ts';
import { users } from '../../../server/db/schema.ts';
import { mailSends } from '../../../server/db/schema-messages.ts';
import { NOTICE_ADDRESS_GONE } from '../../../server/repositories/mail-sends.ts';
import {
  noticeAddressId,
  saveNoticeMail as saveAt,
} from '../../../server/services/notice-mail/notice-mail.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { approvedMember } from '../auth/helpers.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { linkIn, type Received } from '../helpers/smtp-inbox.ts';
import {
  noticeMailOf,
  onTestApp,
  ORIGIN,
  saveNoticeMail,
  sendMail,
  startMailWorld,
  type MailWorld,
} from './notice-mail-setup.ts';

// Switching the notice address A -> B -> A (decision 067): A is mailed one confirmation a day, not
// one per switch, and that one mail confirms A whenever A is the address again. Through the real
// SMTP server the other mail tests use.
const A = 'alice@example.com';
const B = 'other@example.com';
let world: MailWorld;
let alice: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  world = await startMailWorld();
  alice = await approvedMember(world.base, 'alice');
});
afterEach(async () => {
  await world.app.close();
  await world.inbox.close();
});

/** Saves `email` (notices on) as Alice from her profile; the answer's message. */
async function save(email: string): Promise<string | undefined> {
  const response = await saveNoticeMail(world.base, alice, { email, enabled: true });
  expect(response.status).toBe(200);
  return ((await response.json()) as { message?: string }).message;
}

const mailsTo = (address: string) => world.inbox.received.filter((received) => received.to.includes(address));

/** Follows a confirmation mail's link as its reader does (the button's POST); the status. */
async function confirmWith(mail: Received | undefined): Promise<number> {
  if (!mail) throw new Error('no confirmation mail');
  const link = linkIn(mail, `${ORIGIN}/api/notice-mail/confirm?`);
  return (await fetch(onTestApp(world.base, link), { method: 'POST' })).status;
}

test('A -> B -> A the same day: A is not mailed again, and its first mail still confirms it', async () => {
  expect(await save(A)).toBe(NOTICE_MAIL_TEXTS.checkInbox);
  expect(await sendMail(world.inbox)).toEqual({ sent: 1, retried: 0, failed: 0 });
  await save(B);
  expect(await sendMail(world.inbox)).toEqual({ sent: 1, retried: 0, failed: 0 });
  // Back to A: the same words as any unconfirmed address (at most one a day), and no mail.
  expect(await save(A)).toBe(NOTICE_MAIL_TEXTS.checkInbox);
  expect(await sendMail(world.inbox)).toEqual({ sent: 0, retried: 0, failed: 0 });
  expect(mailsTo(A)).toHaveLength(1);
  expect(mailsTo(B)).toHaveLength(1);
  expect(await confirmWith(mailsTo(A)[0])).toBe(200);
  expect(await noticeMailOf(world.base, alice)).toMatchObject({ address: A, confirmed: true });
  // B's link names an address no longer stored.
  expect(await confirmWith(mailsTo(B)[0])).toBe(400);
});

test('A -> B -> A before the job runs: A gets its one confirmation, B none', async () => {
  await save(A);
  await save(B);
  await save(A);
  // B's confirmation is given up (its address was replaced); A's goes out once.
  expect(await sendMail(world.inbox)).toEqual({ sent: 1, retried: 0, failed: 1 });
  expect(world.inbox.received.map((received) => received.to)).toEqual([[A]]);
  expect(await confirmWith(mailsTo(A)[0])).toBe(200);
});

test(
  'A, replaced by B before its mail went out, then A again the same day: A gets that mail now',
  // Its confirmation is queued again by an upsert that updates only a message never sent.
  { tags: ['engine'] },
  async () => {
    await save(A);
    await save(B);
    // The job finds A's confirmation without its address: given up, nothing sent to A.
    expect(await sendMail(world.inbox)).toEqual({ sent: 1, retried: 0, failed: 1 });
    const { db } = await testDatabase();
    const [givenUp] = await db.select().from(mailSends).where(eq(mailSends.status, 'failed'));
    expect(givenUp?.lastError).toBe(NOTICE_ADDRESS_GONE);
    await save(A);
    expect(await sendMail(world.inbox)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(world.inbox.received.map((received) => received.to)).toEqual([[B], [A]]);
    expect(await confirmWith(mailsTo(A)[0])).toBe(200);
    // Two confirmations in the log, A's and B's: A's was sent late, not queued a second time.
    const confirmations = await db.select().from(mailSends).where(eq(mailSends.kind, 'notice_confirm'));
    expect(confirmations).toHaveLength(2);
  },
);

test('A confirmed, then B, then A: A must be confirmed again, by the mail it already has', async () => {
  await save(A);
  await sendMail(world.inbox);
  expect(await confirmWith(mailsTo(A)[0])).toBe(200);
  await save(B);
  await sendMail(world.inbox);
  // A replaced address is forgotten with its confirmation (decision 058): nothing is kept of it.
  expect(await save(A)).toBe(NOTICE_MAIL_TEXTS.checkInbox);
  expect(await noticeMailOf(world.base, alice)).toMatchObject({ address: A, confirmed: false });
  expect(await sendMail(world.inbox)).toEqual({ sent: 0, retried: 0, failed: 0 });
  expect(await confirmWith(mailsTo(A)[0])).toBe(200);
  expect(await noticeMailOf(world.base, alice)).toMatchObject({ address: A, confirmed: true });
  expect(mailsTo(A)).toHaveLength(1);
});

test('the next day, A switched back to is mailed a new confirmation', async () => {
  const { db } = await testDatabase();
  const key = TEST_SECRETS.tokenKey;
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.threadsUserId, simulatedUserId('alice')));
  const userId = user?.id ?? '';
  const today = new Date('2026-12-07T10:00:00Z');
  const tomorrow = new Date('2026-12-08T10:00:00Z');
  const saveOn = async (email: string, day: Date) =>
    (await saveAt(db, key, { userId, email, enabled: true }, day)).confirmationQueued;
  expect(await saveOn(A, today)).toBe(true);
  await sendMail(world.inbox);
  expect(await saveOn(B, today)).toBe(true);
  expect(await saveOn(A, today)).toBe(false);
  expect(await saveOn(A, tomorrow)).toBe(true);
  // B's was given up (replaced before it went out); A's of the next day is sent.
  expect(await sendMail(world.inbox)).toEqual({ sent: 1, retried: 0, failed: 1 });
  expect(mailsTo(A)).toHaveLength(2);
  // The id is the member's and the address's: another member giving A has a row of their own.
  expect(noticeAddressId(key, userId, A)).not.toBe(noticeAddressId(key, `${userId}x`, A));
  expect(noticeAddressId(key, userId, A)).not.toBe(noticeAddressId(key, userId, B));
});
