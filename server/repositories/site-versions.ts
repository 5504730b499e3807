import { desc, eq, inArray, like, lt, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { appMeta, publisherLease, siteObjects, siteVersions } from '../db/schema.ts';

const LEASE_ROW = 1;
/** The app_meta keys under which any instance asks the publisher for a publish, by kind of change. */
const PUBLISH_WANTED = 'publish_wanted:';

/** A published version: its id and every file's path -> object hash. */
export interface SiteVersion {
  id: number;
  files: Record<string, string>;
  catalogueVersion: string | null;
  publisher: string;
}

/** The newest version's id and how long until instances switch to it (0 once due), by the database's clock. */
export interface LatestVersion {
  id: number;
  waitMs: number;
}

/** The publisher lease and the published versions with their stored files (decision 036). */
export function createSiteVersionsRepository(db: Database) {
  return {
    /**
     * Takes or renews the publisher lease for `holder` until `ttlMs` from now, in one statement (safe
     * behind a transaction pooler): it succeeds when the row is free, lapsed, or already ours.
     */
    async claimLease(holder: string, ttlMs: number): Promise<boolean> {
      const until = sql`now() + make_interval(secs => ${ttlMs / 1000})`;
      const rows = await db
        .insert(publisherLease)
        .values({ id: LEASE_ROW, holder, until })
        .onConflictDoUpdate({
          target: publisherLease.id,
          set: { holder, until },
          setWhere: sql`${publisherLease.until} < now() or ${publisherLease.holder} = ${holder}`,
        })
        .returning({ holder: publisherLease.holder });
      return rows[0]?.holder === holder;
    },

    /** Gives the lease up at once (a clean shutdown), so another instance need not wait for it to lapse. */
    async releaseLease(holder: string): Promise<void> {
      await db
        .update(publisherLease)
        .set({ until: sql`now() - interval '1 second'` })
        .where(eq(publisherLease.holder, holder));
    },

    /** Asks the publishing instance, wherever it runs, for a publish of `kind` (a counter it watches). */
    async wantPublish(kind: string): Promise<void> {
      await db
        .insert(appMeta)
        .values({ key: `${PUBLISH_WANTED}${kind}`, value: '1' })
        .onConflictDoUpdate({
          target: appMeta.key,
          set: { value: sql`(${appMeta.value}::bigint + 1)::text`, updatedAt: sql`now()` },
        });
    },

    /** How many publishes of each kind have been asked for so far (compare two readings). */
    async publishesWanted(): Promise<Map<string, string>> {
      const rows = await db
        .select({ key: appMeta.key, value: appMeta.value })
        .from(appMeta)
        .where(like(appMeta.key, `${PUBLISH_WANTED}%`));
      return new Map(rows.map((row) => [row.key.slice(PUBLISH_WANTED.length), row.value]));
    },

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
          files: siteVersions.files,
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

    /** Records a version whose objects are all stored, due `leadMs` from now; returns its id. */
    async insertVersion(version: Omit<SiteVersion, 'id'>, leadMs: number): Promise<number> {
      const [row] = await db
        .insert(siteVersions)
        .values({ ...version, activateAt: sql`now() + make_interval(secs => ${leadMs / 1000})` })
        .returning({ id: siteVersions.id });
      if (!row) throw new Error('site version insert returned no row');
      return row.id;
    },

    /**
     * Deletes all but the newest `keep` versions and every object none of the kept ones names, in one
     * transaction (an instance switching to a kept version still finds every file).
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
        const named = tx
          .select({ hash: sql<string>`value` })
          .from(sql`${siteVersions}, jsonb_each_text(${siteVersions.files})`);
        await tx.delete(siteObjects).where(notInArray(siteObjects.hash, named));
      });
    },
  };
}

export type SiteVersionsRepository = ReturnType<typeof createSiteVersionsRepository>;
