import { eq, like, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { appMeta, publisherLease } from '../db/schema.ts';

const LEASE_ROW = 1;
/** The app_meta keys under which any instance asks the publisher for a publish, by kind of change. */
const PUBLISH_WANTED = 'publish_wanted:';

/** Who publishes among several instances (decision 036), and the publishes other instances ask for. */
export function createPublisherLeaseRepository(db: Database) {
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
  };
}

export type PublisherLeaseRepository = ReturnType<typeof createPublisherLeaseRepository>;
