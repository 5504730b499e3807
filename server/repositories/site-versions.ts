import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { publisherLease, siteObjects, siteVersionFiles, siteVersions } from '../db/schema.ts';

/** A published version; its files are read with filesAt or changesBetween. */
export interface SiteVersion {
  id: number;
  fileCount: number;
  changedCount: number;
  catalogueVersion: string | null;
  publisher: string;
}

/** A version to record: each changed path's new object hash, or null where the path was removed. */
export interface NewVersion {
  /** The newest version when the changes were read: they apply to it alone. */
  base: number | null;
  changes: ReadonlyMap<string, string | null>;
  /** When set, the publisher lease must be this instance's at the moment of writing. */
  leaseHolder?: string | undefined;
  catalogueVersion: string | null;
  publisher: string;
}

/** What turns version `from`'s files into version `to`'s (see changesBetween). */
export interface VersionChanges {
  /** Paths added or given another object, with the object `to` holds. */
  changed: Map<string, string>;
  /** Paths `from` had and `to` has not. */
  removed: string[];
  /** Objects `from` held at the changed or removed paths: unneeded by `to` unless named again. */
  replaced: string[];
}

/** A version was not recorded: what it was read against is no longer the newest, or the lease moved. */
export class StaleVersionBase extends Error {
  override name = 'StaleVersionBase';
}

/** Paths or rows per statement: far below PostgreSQL's 65,535 parameters. */
const BATCH = 5_000;

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += BATCH) out.push(items.slice(start, start + BATCH));
  return out;
}

/** The rows live at version `id`: written at or before it and not yet replaced at it. */
const liveAt = (id: number) =>
  and(
    lte(siteVersionFiles.fromVersion, id),
    or(isNull(siteVersionFiles.untilVersion), gt(siteVersionFiles.untilVersion, id)),
  );

/** The newest version's id and how long until instances switch to it (0 once due), by the database's clock. */
export interface LatestVersion {
  id: number;
  waitMs: number;
}

/** The published versions, which object each path holds, and the stored objects (decisions 036, 044). */
export function createSiteVersionsRepository(db: Database) {
  return {
    /** The newest version's id, or null before the first publish. */
    async latestId(): Promise<number | null> {
      return (await this.latest())?.id ?? null;
    },

    /**
     * The newest version and the wait until it is due, measured by the database's clock: instances on
     * different machines then switch together even when their own clocks disagree.
     */
    async latest(): Promise<LatestVersion | null> {
      const [row] = await db
        .select({
          id: siteVersions.id,
          waitMs: sql<number>`greatest(0, extract(epoch from ${siteVersions.activateAt} - now()) * 1000)::float8`,
        })
        .from(siteVersions)
        .orderBy(desc(siteVersions.id))
        .limit(1);
      return row ? { id: row.id, waitMs: Number(row.waitMs) } : null;
    },

    async find(id: number): Promise<SiteVersion | null> {
      const [row] = await db
        .select({
          id: siteVersions.id,
          fileCount: siteVersions.fileCount,
          changedCount: siteVersions.changedCount,
          catalogueVersion: siteVersions.catalogueVersion,
          publisher: siteVersions.publisher,
        })
        .from(siteVersions)
        .where(eq(siteVersions.id, id));
      return row ?? null;
    },

    /** Which of `hashes` have no stored object yet. */
    async missingObjects(hashes: readonly string[]): Promise<string[]> {
      if (hashes.length === 0) return [];
      const stored = await db
        .select({ hash: siteObjects.hash })
        .from(siteObjects)
        .where(inArray(siteObjects.hash, [...hashes]));
      const have = new Set(stored.map((row) => row.hash));
      return hashes.filter((hash) => !have.has(hash));
    },

    /** Stores objects; one already stored (another publish raced us) is left as it is. */
    async storeObjects(objects: readonly { hash: string; body: Buffer }[]): Promise<void> {
      if (objects.length === 0) return;
      await db
        .insert(siteObjects)
        .values(objects.map(({ hash, body }) => ({ hash, body, size: body.length })))
        .onConflictDoNothing();
    },

    /** The stored bodies of `hashes` (those that exist). */
    async readObjects(hashes: readonly string[]): Promise<{ hash: string; body: Buffer }[]> {
      if (hashes.length === 0) return [];
      const rows = await db
        .select({ hash: siteObjects.hash, body: siteObjects.body })
        .from(siteObjects)
        .where(inArray(siteObjects.hash, [...hashes]));
      return rows.map((row) => ({ hash: row.hash, body: Buffer.from(row.body) }));
    },

    /** The oldest version still kept: an instance on an older one reads the newest whole. */
    async oldestId(): Promise<number | null> {
      const [row] = await db
        .select({ id: siteVersions.id })
        .from(siteVersions)
        .orderBy(asc(siteVersions.id))
        .limit(1);
      return row?.id ?? null;
    },

    /** Every file of version `id`: path -> object hash (read whole only by an instance starting afresh). */
    async filesAt(id: number): Promise<Map<string, string>> {
      const rows = await db
        .select({ path: siteVersionFiles.path, hash: siteVersionFiles.hash })
        .from(siteVersionFiles)
        .where(liveAt(id));
      return new Map(rows.map((row) => [row.path, row.hash]));
    },

    /** The objects live now at those of `paths` that have one (the newest version's). */
    async liveHashes(paths: readonly string[]): Promise<Map<string, string>> {
      const live = new Map<string, string>();
      for (const batch of batches(paths)) {
        const rows = await db
          .select({ path: siteVersionFiles.path, hash: siteVersionFiles.hash })
          .from(siteVersionFiles)
          .where(and(isNull(siteVersionFiles.untilVersion), inArray(siteVersionFiles.path, batch)));
        for (const row of rows) live.set(row.path, row.hash);
      }
      return live;
    },

    /** The paths live now under `prefix` (a removed folder's), for the rare removal of a whole folder. */
    async livePathsUnder(prefix: string): Promise<string[]> {
      const rows = await db
        .select({ path: siteVersionFiles.path })
        .from(siteVersionFiles)
        .where(
          and(isNull(siteVersionFiles.untilVersion), sql`starts_with(${siteVersionFiles.path}, ${prefix})`),
        );
      return rows.map((row) => row.path);
    },

    /**
     * What changed from version `from` to `to` (both kept, `from` older): read from the rows that
     * began or ended between them, so it costs the size of the change, not the site's.
     */
    async changesBetween(from: number, to: number): Promise<VersionChanges> {
      const rows = await db
        .select({
          path: siteVersionFiles.path,
          hash: siteVersionFiles.hash,
          fromVersion: siteVersionFiles.fromVersion,
          untilVersion: siteVersionFiles.untilVersion,
        })
        .from(siteVersionFiles)
        .where(
          or(
            and(gt(siteVersionFiles.fromVersion, from), lte(siteVersionFiles.fromVersion, to)),
            and(gt(siteVersionFiles.untilVersion, from), lte(siteVersionFiles.untilVersion, to)),
          ),
        );
      const changed = new Map<string, string>();
      const ended = new Map<string, string>();
      for (const row of rows) {
        const liveAtTo = row.fromVersion <= to && (row.untilVersion === null || row.untilVersion > to);
        if (liveAtTo) changed.set(row.path, row.hash);
        // A row live at `from` that ended since: its path changed or went.
        else if (row.fromVersion <= from) ended.set(row.path, row.hash);
      }
      return {
        changed,
        removed: [...ended.keys()].filter((key) => !changed.has(key)),
        replaced: [...new Set(ended.values())],
      };
    },

    /**
     * Records a version whose objects are all stored, due `leadMs` from now, in one transaction: the
     * version, the end of each changed path's live row and the new rows. Returns its id. Refused
     * (StaleVersionBase) when another version was recorded since `base`, or the lease is no longer
     * `leaseHolder`'s: changes read against one version must never be laid on another.
     */
    async insertVersion(version: NewVersion, leadMs: number): Promise<number> {
      return db.transaction(async (tx) => {
        // One recording at a time, from any instance; held to the end of the transaction, so it works
        // behind a transaction pooler.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('site_versions'))`);
        const [previous] = await tx
          .select({ id: siteVersions.id, fileCount: siteVersions.fileCount })
          .from(siteVersions)
          .orderBy(desc(siteVersions.id))
          .limit(1);
        if ((previous?.id ?? null) !== version.base)
          throw new StaleVersionBase('another version was recorded since these changes were read');
        if (version.leaseHolder !== undefined) {
          const [held] = await tx
            .select({ holder: publisherLease.holder })
            .from(publisherLease)
            .where(and(eq(publisherLease.holder, version.leaseHolder), gt(publisherLease.until, sql`now()`)));
          if (!held) throw new StaleVersionBase('this instance no longer holds the publisher lease');
        }
        const [row] = await tx
          .insert(siteVersions)
          .values({
            fileCount: 0,
            changedCount: version.changes.size,
            catalogueVersion: version.catalogueVersion,
            publisher: version.publisher,
            activateAt: sql`now() + make_interval(secs => ${leadMs / 1000})`,
          })
          .returning({ id: siteVersions.id });
        if (!row) throw new Error('site version insert returned no row');
        let ended = 0;
        for (const paths of batches([...version.changes.keys()]))
          ended += (
            await tx
              .update(siteVersionFiles)
              .set({ untilVersion: row.id })
              .where(and(isNull(siteVersionFiles.untilVersion), inArray(siteVersionFiles.path, paths)))
              .returning({ path: siteVersionFiles.path })
          ).length;
        const written = [...version.changes].flatMap(([path, hash]) =>
          hash === null ? [] : [{ path, hash, fromVersion: row.id }],
        );
        for (const values of batches(written)) await tx.insert(siteVersionFiles).values(values);
        // Counted, not listed: the previous count, less the rows that ended, plus the new ones.
        await tx
          .update(siteVersions)
          .set({ fileCount: (previous?.fileCount ?? 0) - ended + written.length })
          .where(eq(siteVersions.id, row.id));
        return row.id;
      });
    },

    /**
     * Deletes stored objects no row names that are older than `graceMs`: those of a record that
     * failed after uploading. Looks at every object: run once per publisher start, not per publish.
     */
    async sweepObjects(graceMs: number): Promise<number> {
      const gone = await db
        .delete(siteObjects)
        .where(
          and(
            lt(siteObjects.createdAt, sql`now() - make_interval(secs => ${graceMs / 1000})`),
            sql`not exists (select 1 from ${siteVersionFiles} where ${siteVersionFiles.hash} = ${siteObjects.hash})`,
          ),
        )
        .returning({ hash: siteObjects.hash });
      return gone.length;
    },

    /**
     * Deletes all but the newest `keep` versions, the file rows no kept version holds, and the objects
     * only those rows named, in one transaction (an instance switching to a kept version still finds
     * every file). Only rows that ended are looked at: the cost is what changed, not the site.
     */
    async prune(keep: number): Promise<void> {
      await db.transaction(async (tx) => {
        const kept = await tx
          .select({ id: siteVersions.id })
          .from(siteVersions)
          .orderBy(desc(siteVersions.id))
          .limit(keep);
        const oldest = kept.at(-1)?.id;
        if (oldest === undefined) return;
        await tx.delete(siteVersions).where(lt(siteVersions.id, oldest));
        const gone = await tx
          .delete(siteVersionFiles)
          .where(lte(siteVersionFiles.untilVersion, oldest))
          .returning({ hash: siteVersionFiles.hash });
        for (const hashes of batches([...new Set(gone.map((row) => row.hash))]))
          await tx
            .delete(siteObjects)
            .where(
              and(
                inArray(siteObjects.hash, hashes),
                sql`not exists (select 1 from ${siteVersionFiles} where ${siteVersionFiles.hash} = ${siteObjects.hash})`,
              ),
            );
      });
    },
  };
}

export type SiteVersionsRepository = ReturnType<typeof createSiteVersionsRepository>;
