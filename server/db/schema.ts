import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { foldedName } from './name-fold.ts';
import { imageKey, linkKey, textKey } from './queue-keys.ts';

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
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadsUserId: text('threads_user_id').notNull().unique(),
    threadsUsername: text('threads_username').notNull(),
    /** Granted by the admin CLI; ADMIN_THREADS_USERNAMES adds admins at request time. */
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Threads refused to refresh the token: the user must sign in again before jobs can act for them. */
    reconnectNeeded: boolean('reconnect_needed').notNull().default(false),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // A display name that looks like someone's handle is refused (decision 065): found by its folded form.
    index('users_threads_username_folded').on(foldedName(table.threadsUsername)),
  ],
);

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
    // Addresses are looked up through this one.
    uniqueIndex('profiles_display_username_lower').on(sql`lower(${table.displayUsername})`),
    // ...and without lookalikes (decision 065): of two members choosing ori_ux and 0ri_ux at once,
    // the index lets one through, as the one above does for the same name.
    uniqueIndex('profiles_display_username_folded').on(foldedName(table.displayUsername)),
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
  /** The permissions granted with this token, as debug_token reported them at sign-in. */
  scopes: text('scopes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
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

/** Where a thread came from (spec section 3). */
export const THREAD_SOURCES = ['user_own', 'public_search', 'public_tag', 'manual_submission'] as const;
/**
 * pending: waiting for review; hidden: approved, then gone at the source; removed: taken out of
 * the catalogue by its author (statusBeforeRemoval says what it was, to restore it).
 */
export const THREAD_STATUSES = ['pending', 'approved', 'rejected', 'hidden', 'removed'] as const;

/**
 * A Threads post the curation found or a member submitted. The shortcode identifies a post across
 * every link form and source, so it is the key that keeps duplicates out.
 */
export const threads = pgTable(
  'threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shortcode: text('shortcode').notNull().unique(),
    /** The Graph media id, when an API call returned the post. */
    mediaId: text('media_id'),
    source: text('source', { enum: THREAD_SOURCES }).notNull(),
    status: text('status', { enum: THREAD_STATUSES }).notNull().default('pending'),
    /** The keyword or tag that found it. */
    query: text('query'),
    /** Null only for a submitted /t/ link whose author the API could not tell. */
    username: text('username'),
    authorName: text('author_name'),
    text: text('text').notNull().default(''),
    /** The picture's signed CDN address (a video's thumbnail, a carousel's first picture). */
    imageUrl: text('image_url'),
    /** When that address stops working (its `oe` expiry), when known: refreshed before then. */
    imageExpiresAt: timestamp('image_expires_at', { withTimezone: true }),
    topicTag: text('topic_tag'),
    permalink: text('permalink').notNull(),
    likes: integer('likes'),
    replies: integer('replies'),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
    /** For user_own: the member whose post it is. */
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Why an admin rejected it: shown to the member who submitted it and in the public log. */
    decisionReason: text('decision_reason'),
    /** The first time the deletion sync could not read it at the source since it last could. */
    missingSince: timestamp('missing_since', { withTimezone: true }),
    /** Its status when its author removed it from the catalogue (status 'removed'). */
    statusBeforeRemoval: text('status_before_removal', { enum: THREAD_STATUSES }),
    /**
     * Its author chose 'Show my posts as cards' (decision 070): kept by a trigger from card_consents,
     * so every insert and every consent change sets it, and the catalogue's change log sees it.
     */
    shownAsCard: boolean('shown_as_card').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    index('threads_status_posted').on(table.status, table.postedAt),
    // The public catalogue's order: the export reads it page by page (keyset) at any size.
    index('threads_catalogue_order')
      .on(sql`coalesce(${table.postedAt}, ${table.createdAt}) desc`, table.shortcode)
      .where(sql`${table.status} = 'approved'`),
    // A thread page's related threads (decision 046): the newest approved of one topic, at any size.
    index('threads_topic_order')
      .on(sql`lower(${table.topicTag})`, sql`coalesce(${table.postedAt}, ${table.createdAt}) desc`)
      .where(sql`${table.status} = 'approved'`),
    // An author's posts, found by their Threads username without regard to case.
    index('threads_username_lower').on(sql`lower(${table.username})`),
    index('threads_owner').on(table.ownerUserId),
    // The public moderation log pages through decisions, newest first.
    index('threads_decided').on(table.decidedAt, table.id),
    // The review queue's near-duplicates among decided threads (decision 055): same text, link, picture.
    index('threads_decided_text_key')
      .on(textKey(table.text))
      .where(sql`${table.status} <> 'pending'`),
    index('threads_decided_link_key')
      .on(linkKey(table.text))
      .where(sql`${table.status} <> 'pending'`),
    index('threads_decided_image_key')
      .on(imageKey(table.imageUrl))
      .where(sql`${table.status} <> 'pending'`),
  ],
);

/** One run of the curation job: when, what it found per source, what went wrong. */
export const curationRuns = pgTable('curation_runs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  trigger: text('trigger', { enum: ['schedule', 'admin', 'cli'] }).notNull(),
  status: text('status', { enum: ['running', 'succeeded', 'partial', 'failed'] }).notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /**
   * Per source: how many posts were seen and how many were new; for members' own posts also how many
   * insights calls were not made because the token lacks threads_manage_insights (decision 068).
   */
  counts: jsonb('counts')
    .$type<Record<string, { seen: number; added: number; insights_skipped?: number }>>()
    .notNull()
    .default({}),
  searches: integer('searches').notNull().default(0),
  hidden: integer('hidden').notNull().default(0),
  errors: jsonb('errors').$type<string[]>().notNull().default([]),
});

/** Every keyword search made, per Threads user: the 24-hour quota is counted from here. */
export const searchCalls = pgTable(
  'search_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    threadsUserId: text('threads_user_id').notNull(),
    query: text('query').notNull(),
    calledAt: timestamp('called_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the search answered: the next RECENT search of the query asks only for newer posts. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('search_calls_user_time').on(table.threadsUserId, table.calledAt)],
);

/**
 * A thread link a member submitted. It creates the thread row it points at (source
 * manual_submission), so its status is that thread's review status.
 */
export const manualSubmissions = pgTable(
  'manual_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .notNull()
      .unique()
      .references(() => threads.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The link in its canonical form (contract/thread-url.ts). */
    threadUrl: text('thread_url').notNull(),
    notes: text('notes'),
    createdAt: createdAt(),
  },
  (table) => [index('manual_submissions_user_time').on(table.userId, table.createdAt)],
);

export const GENERATED_POST_STATUSES = ['pending', 'published', 'failed'] as const;

/**
 * A post the curator's account publishes: about an approved manual submission (`threadId`), or the
 * link to a published weekly digest (`digestId`, decision 060); exactly one of the two.
 */
export const generatedPosts = pgTable(
  'generated_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .unique()
      .references(() => threads.id, { onDelete: 'cascade' }),
    /**
     * The digest it links to. No foreign key: digests live in schema-messages.ts, which imports this
     * file, and a digest row is never deleted.
     */
    digestId: text('digest_id').unique(),
    content: text('content').notNull(),
    mediaUrl: text('media_url'),
    /** The featured post's media id, when known: the published post quotes it. */
    quotePostId: text('quote_post_id'),
    status: text('status', { enum: GENERATED_POST_STATUSES }).notNull().default('pending'),
    /** The media container made for it: a retry publishes this one again instead of a new post. */
    creationId: text('creation_id'),
    /** When that container was made: Threads lets a container expire after 24 hours. */
    containerCreatedAt: timestamp('container_created_at', { withTimezone: true }),
    /** The published post's media id and permalink. */
    mediaId: text('media_id'),
    threadUrl: text('thread_url'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Why the last attempt failed; cleared when a retry succeeds. */
    error: text('error'),
    createdAt: createdAt(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (table) => [
    index('generated_posts_due').on(table.status, table.nextAttemptAt),
    check('generated_posts_one_subject', sql`(${table.threadId} is null) <> (${table.digestId} is null)`),
  ],
);

/**
 * A member's saved thread (a gem). Only approved threads show; one that is hidden at the source
 * later stays saved but disappears from every list until it comes back.
 */
export const gems = pgTable(
  'gems',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.threadId] }),
    index('gems_thread').on(table.threadId),
  ],
);

export const BOUND_ROLES = ['admin', 'curator'] as const;

/**
 * A role granted by configuration (ADMIN_THREADS_USERNAMES, CURATOR_THREADS_USERNAME) is bound to the
 * Threads user id of the first person to sign in with that username, so a username that later
 * changes hands on Threads does not carry the role with it.
 */
export const roleBindings = pgTable(
  'role_bindings',
  {
    role: text('role', { enum: BOUND_ROLES }).notNull(),
    /** The configured username, lower case. */
    username: text('username').notNull(),
    threadsUserId: text('threads_user_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.role, table.username] })],
);

/**
 * An author who asked never to be curated ('Never curate me'): later search results and
 * submissions of their posts stay out of the queue. Keyed on the Threads user id of the person
 * who asked; the username (lower case) is what search results carry, refreshed at each sign-in.
 */
export const authorOptOuts = pgTable(
  'author_opt_outs',
  {
    threadsUserId: text('threads_user_id').primaryKey(),
    username: text('username').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('author_opt_outs_username').on(table.username)],
);

/**
 * An author who chose 'Show my posts as cards' (decision 070): under PUBLIC_POST_DISPLAY=embed their
 * posts keep our full card in public. Keyed like an opt-out; the username (lower case) is what the
 * threads table carries, refreshed at each sign-in.
 */
export const cardConsents = pgTable(
  'card_consents',
  {
    threadsUserId: text('threads_user_id').primaryKey(),
    username: text('username').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('card_consents_username').on(table.username)],
);

/**
 * One row per scheduled job (and per lock taken with `withJobLock`): when it is next due and who
 * holds its lease. Instances claim a run with one atomic UPDATE, so a job runs once per interval
 * across all of them, and the lease (renewed by a heartbeat) expires when its holder dies.
 */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextDueAt: timestamp('next_due_at', { withTimezone: true }).notNull().defaultNow(),
  /** Which instance runs it now (host, pid and a token of the run); null when nobody does. */
  leaseHolder: text('lease_holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  /** 'succeeded' or 'failed' (the error is in the log of the instance that ran it). */
  lastOutcome: text('last_outcome', { enum: ['succeeded', 'failed'] }),
});

/**
 * Rate-limit counters shared by the instances on PostgreSQL (decision 066): one row per route and
 * client (user id or address) with the hits of its current window. Each hit is one atomic upsert that
 * starts a new window when the stored one has ended; rows of ended windows are deleted now and then.
 * No index on `reset_at`: the table holds only recent clients, and without one most hits are HOT
 * updates. The embedded database keeps its limits in memory and leaves this table empty.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/** Raw bytes: PGlite hands back a Uint8Array and pg a Buffer; callers wrap it in Buffer.from. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Which instance publishes the site (decision 036): one row, held by the instance whose lease has
 * not run out; the holder renews it, the others try to take it when it lapses.
 */
export const publisherLease = pgTable('publisher_lease', {
  id: integer('id').primaryKey(),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});

/** Every file of a published version, stored once by its content's SHA-256, for every instance to fetch. */
export const siteObjects = pgTable('site_objects', {
  hash: text('hash').primaryKey(),
  body: bytea('body').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
});

/**
 * A published version of what the instances serve (decisions 036 and 044): its files are the rows of
 * `site_version_files` live at its id. Instances switch to the newest one once they hold all of them.
 */
export const siteVersions = pgTable('site_versions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** How many files the version has and how many it changed or removed, for logs and tests. */
  fileCount: integer('file_count').notNull(),
  changedCount: integer('changed_count').notNull(),
  /** The catalogue version the files carry (the manifest's), for logs and tests. */
  catalogueVersion: text('catalogue_version'),
  /** The instance that published it. */
  publisher: text('publisher').notNull(),
  /** When every instance switches to it (a moment ahead, so all have fetched it by then). */
  activateAt: timestamp('activate_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: createdAt(),
});

/**
 * Which object a path holds, version by version (decision 044): a row is live from the version that
 * wrote it (`from_version`) until the one that replaced or removed it (`until_version`, null while
 * live). A version writes rows only for what it changed, and an instance catches up by reading the
 * rows that began or ended since its version: both cost the size of the change, not the site's.
 */
export const siteVersionFiles = pgTable(
  'site_version_files',
  {
    path: text('path').notNull(),
    hash: text('hash').notNull(),
    fromVersion: bigint('from_version', { mode: 'number' }).notNull(),
    untilVersion: bigint('until_version', { mode: 'number' }),
  },
  (table) => [
    primaryKey({ columns: [table.path, table.fromVersion] }),
    index('site_version_files_from').on(table.fromVersion),
    index('site_version_files_until').on(table.untilVersion),
    index('site_version_files_hash').on(table.hash),
    // One live row per path: two publishers racing cannot both write one.
    uniqueIndex('site_version_files_live')
      .on(table.path)
      .where(sql`${table.untilVersion} is null`),
  ],
);

/** A transaction id (PostgreSQL 13+), read as text: it may pass 2^53. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * Catalogue threads whose card changed (approved, edited, removed, deleted), logged by a trigger on
 * `threads` (migration 0009), so that the export learns what changed since its last full export
 * without reading the catalogue (decision 037). `xid` is the writing transaction's: the export keeps
 * the snapshot it read under and asks for the changes that snapshot could not see, which a sequence
 * alone cannot tell (sequence numbers are taken before commit, in any order).
 */
export const catalogueChanges = pgTable(
  'catalogue_changes',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    threadId: uuid('thread_id').notNull(),
    xid: xid8('xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** The thread was approved before this change: it may be in the last full export. */
    wasApproved: boolean('was_approved').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('catalogue_changes_xid').on(table.xid), index('catalogue_changes_at').on(table.at)],
);
