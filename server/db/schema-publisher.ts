/**
 * What the publisher wing shares between instances (decisions 036, 037, 044): the publisher's lease,
 * the published versions and their files, and the catalogue's change log. Apart from schema.ts for
 * its size; one Drizzle schema all the same (drizzle.config.ts lists every file, client.ts joins them).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

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
