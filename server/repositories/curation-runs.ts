import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { curationRuns, searchCalls } from '../db/schema.ts';

export type CurationRun = typeof curationRuns.$inferSelect;
export type RunTrigger = CurationRun['trigger'];
export type RunOutcome = Pick<CurationRun, 'status' | 'counts' | 'searches' | 'hidden' | 'errors'>;

/** The record of curation runs, and the keyword searches they spent. */
export function createCurationRunsRepository(db: Database) {
  return {
    async start(trigger: RunTrigger): Promise<number> {
      const [row] = await db
        .insert(curationRuns)
        .values({ trigger, status: 'running' })
        .returning({ id: curationRuns.id });
      if (!row) throw new Error('run insert returned no row');
      return row.id;
    },

    async finish(id: number, outcome: RunOutcome): Promise<void> {
      await db
        .update(curationRuns)
        .set({ ...outcome, finishedAt: sql`now()` })
        .where(eq(curationRuns.id, id));
    },

    async find(id: number): Promise<CurationRun | null> {
      const [row] = await db.select().from(curationRuns).where(eq(curationRuns.id, id));
      return row ?? null;
    },

    /** The newest runs first. */
    async latest(limit: number): Promise<CurationRun[]> {
      return db.select().from(curationRuns).orderBy(desc(curationRuns.id)).limit(limit);
    },

    /** When the newest run that reached Threads (fully or in part) finished; null before any. */
    async lastRefreshedAt(): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | null>`max(${curationRuns.finishedAt})` })
        .from(curationRuns)
        .where(sql`${curationRuns.status} in ('succeeded', 'partial')`);
      return row?.at ? new Date(row.at) : null;
    },

    /** Searches made for this Threads user since `since` (the quota is a rolling 24 hours). */
    async searchesSince(threadsUserId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(searchCalls)
        .where(sql`${searchCalls.threadsUserId} = ${threadsUserId} and ${searchCalls.calledAt} > ${since}`);
      return row?.n ?? 0;
    },

    /** Counts a search before it is made, so a crash mid-call can only over-count; returns its id. */
    async recordSearch(threadsUserId: string, query: string, at: Date): Promise<number> {
      const [row] = await db
        .insert(searchCalls)
        .values({ threadsUserId, query, calledAt: at })
        .returning({ id: searchCalls.id });
      if (!row) throw new Error('search call insert returned no row');
      return row.id;
    },

    /** Marks a recorded search as answered: the next RECENT search of its query starts from here. */
    async completeSearch(id: number, at: Date): Promise<void> {
      await db.update(searchCalls).set({ completedAt: at }).where(eq(searchCalls.id, id));
    },

    /** When the last answered search of `query` for this user was made; null before any. */
    async lastCompletedSearch(threadsUserId: string, query: string): Promise<Date | null> {
      const [row] = await db
        .select({ calledAt: searchCalls.calledAt })
        .from(searchCalls)
        .where(
          and(
            eq(searchCalls.threadsUserId, threadsUserId),
            eq(searchCalls.query, query),
            isNotNull(searchCalls.completedAt),
          ),
        )
        .orderBy(desc(searchCalls.completedAt))
        .limit(1);
      return row?.calledAt ?? null;
    },
  };
}
