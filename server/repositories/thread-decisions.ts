import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { threads } from '../db/schema.ts';
import type { ThreadRow } from './threads.ts';

/** A decided thread as an undo reads it: its row, and whether its decision is still young enough. */
export interface DecisionToUndo {
  thread: ThreadRow;
  /** Decided no longer than the window ago, by the database's clock (never the client's). */
  withinWindow: boolean;
}

/** The thread side of taking a decision back (decision 047); the decision itself is in threads.ts. */
export function createThreadDecisionsRepository(db: Database) {
  return {
    /**
     * Locks the threads for the rest of the transaction, in id order (two overlapping undos or
     * decisions wait for each other instead of deadlocking), and tells whether each was decided
     * within `windowSeconds`. Ids that name no thread are absent.
     */
    async lockForUndo(
      ids: readonly string[],
      windowSeconds: number,
      tx: Database = db,
    ): Promise<Map<string, DecisionToUndo>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({
          thread: threads,
          withinWindow: sql<boolean>`coalesce(${threads.decidedAt} > now() - make_interval(secs => ${windowSeconds}), false)`,
        })
        .from(threads)
        .where(inArray(threads.id, [...ids]))
        .orderBy(threads.id)
        .for('update');
      return new Map(rows.map((row) => [row.thread.id, row]));
    },

    /**
     * Puts a decided thread back to pending, as if never decided: no decision time (so the public
     * log, which reads decided threads, drops it) and no reason. The catalogue_changes trigger logs
     * an approved one as leaving the catalogue, the way a removal does (decision 037).
     */
    async undecide(id: string, tx: Database = db): Promise<ThreadRow | null> {
      const [row] = await tx
        .update(threads)
        .set({ status: 'pending', decidedAt: null, decisionReason: null })
        .where(and(eq(threads.id, id), inArray(threads.status, ['approved', 'rejected'])))
        .returning();
      return row ?? null;
    },
  };
}
