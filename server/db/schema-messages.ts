/**
 * What the product tells people (issue 22): members' notices, the weekly digests, the addresses
 * that asked for mail and the log of every message sent. Apart from schema.ts for its size; one
 * Drizzle schema all the same (drizzle.config.ts lists both files, client.ts joins them).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { NOTICE_KIND_NAMES } from '../../contract/notices.ts';
import { threads, users } from './schema.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * A decision that reached a member (issue 22), written in the transaction of the decision itself.
 * `details` holds what the notice shows that may change or vanish later (the reason as decided, the
 * thread's link and first words), so a notice reads the same once its thread is gone.
 */
export const notices = pgTable(
  'notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTICE_KIND_NAMES }).notNull(),
    threadId: uuid('thread_id').references(() => threads.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [
    index('notices_user_time').on(table.userId, table.createdAt.desc(), table.id.desc()),
    // The header's unread count, without reading the member's whole history.
    index('notices_unread')
      .on(table.userId)
      .where(sql`${table.readAt} is null`),
  ],
);

/**
 * One weekly digest (ISO week), id `YYYY-WW`. Until it is published the selection is computed
 * (most gems, then newest, of the threads approved that week, less `excludedThreadIds`, which the
 * admin trimmed); publishing freezes `threadIds` and the note, and the digest page and mail use those.
 */
export const digests = pgTable('digests', {
  id: text('id').primaryKey(),
  year: integer('year').notNull(),
  week: integer('week').notNull(),
  note: text('note').notNull().default(''),
  excludedThreadIds: uuid('excluded_thread_ids')
    .array()
    .notNull()
    .default(sql`'{}'::uuid[]`),
  threadIds: uuid('thread_ids').array(),
  publishedAt: timestamp('published_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An address that asked for mail, kept only for that and deleted when it asks for none (issue 22):
 * a visitor's for the digest, a member's (userId) for the digest and/or their notices. Nothing is
 * sent but the confirmation until `confirmedAt` (double opt-in). Links in mail carry an HMAC of the
 * id, never a stored token.
 */
export const mailSubscribers = pgTable(
  'mail_subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    userId: uuid('user_id')
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    digest: boolean('digest').notNull().default(false),
    notices: boolean('notices').notNull().default(false),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  // One row per address, whatever its case.
  (table) => [uniqueIndex('mail_subscribers_email_lower').on(sql`lower(${table.email})`)],
);

/**
 * A member's address for their notices by mail (decision 058), one per member, apart from
 * `mail_subscribers` so that a member's address never shares a row (or a confirmation) with a
 * visitor's digest subscription. Mail goes only when `confirmedAt` is set (double opt-in) and `enabled`
 * is on. A new address gets a new id, so links mailed for the old one stop working. Deleted with the
 * member, or when they remove it or follow the unsubscribe link.
 */
export const noticeMailAddresses = pgTable('notice_mail_addresses', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * What a mail is: a confirmation link (digest), a weekly digest, a notice, a notice address's
 * confirmation link.
 */
export const MAIL_KINDS = ['confirm', 'digest', 'notice', 'notice_confirm'] as const;
/**
 * queued: waiting (again, after a failed try, from nextAttemptAt); sending: claimed by one instance
 * until leaseUntil; sent; failed: given up. A 'sending' row whose lease ran out is never tried again:
 * the SMTP server may have taken it, and a second copy is worse than none (decision 054).
 */
export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;

/**
 * The send log, and the outbox: one row per message to one address. `dedupeKey` is unique, so the
 * same digest is queued once per subscriber however many instances or restarts try. No address is
 * stored here: it is read from the subscriber when sent, and an unsubscribe leaves the row anonymous.
 */
export const mailSends = pgTable(
  'mail_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: MAIL_KINDS }).notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    subscriberId: uuid('subscriber_id').references(() => mailSubscribers.id, { onDelete: 'set null' }),
    digestId: text('digest_id').references(() => digests.id, { onDelete: 'set null' }),
    noticeId: bigint('notice_id', { mode: 'number' }).references(() => notices.id, {
      onDelete: 'set null',
    }),
    // A notice mail's or notice confirmation's recipient (decision 058): the address is read when sent.
    noticeAddressId: uuid('notice_address_id').references(() => noticeMailAddresses.id, {
      onDelete: 'set null',
    }),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    messageId: text('message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('mail_sends_due')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'queued'`),
    index('mail_sends_digest').on(table.digestId, table.status),
  ],
);
