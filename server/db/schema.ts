import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Facts about the database itself, e.g. which product version last started on it.
 */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A person who signed in with Threads, keyed on the app-scoped Threads user id (a string: ids exceed
 * 2^53). The username can change on Threads and is refreshed at every sign-in.
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  threadsUserId: text('threads_user_id').notNull().unique(),
  threadsUsername: text('threads_username').notNull(),
  /** Granted by the admin CLI; ADMIN_THREADS_USERNAMES adds admins at request time. */
  isAdmin: boolean('is_admin').notNull().default(false),
  /** Threads refused to refresh the token: the user must sign in again before jobs can act for them. */
  reconnectNeeded: boolean('reconnect_needed').notNull().default(false),
  createdAt: createdAt(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An invite request and, once approved, the public profile. One per user. */
export const profiles = pgTable(
  'profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull(),
    displayUsername: text('display_username'),
    bio: text('bio').notNull().default(''),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    // Display usernames are unique without regard to case: Alice and ALICE are the same name.
    uniqueIndex('profiles_display_username_lower').on(sql`lower(${table.displayUsername})`),
  ],
);

/** A signed-in browser. Only a keyed hash of the cookie value is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sessions_user_id').on(table.userId)],
);

/** The user's long-lived Threads token, AES-256-GCM encrypted with the user id as associated data. */
export const threadsTokens = pgTable('threads_tokens', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ciphertext: text('ciphertext').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Who decided what, when: written in the same transaction as the decision. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actorUserId: uuid('actor_user_id'),
  action: text('action').notNull(),
  subject: text('subject').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
});

/** Meta's data-deletion callbacks: the confirmation code the status page looks up. */
export const deletionRequests = pgTable('deletion_requests', {
  confirmationCode: text('confirmation_code').primaryKey(),
  threadsUserId: text('threads_user_id').notNull(),
  status: text('status', { enum: ['in_progress', 'completed', 'error'] }).notNull(),
  createdAt: createdAt(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});
