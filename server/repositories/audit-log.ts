import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export type AuditEntry = typeof auditLog.$inferSelect;

/** The audit trail: who did what to what, and when. Written in the same transaction as the act. */
export function createAuditLogRepository(db: Database) {
  return {
    async record(
      entry: {
        actorUserId: string | null;
        action: string;
        subject: string;
        details?: Record<string, unknown>;
      },
      tx: Database = db,
    ): Promise<void> {
      await tx.insert(auditLog).values({ ...entry, details: entry.details ?? {} });
    },

    /** The newest entry about `subject` among `actions`; null when there is none. */
    async latest(subject: string, actions: readonly string[], tx: Database = db): Promise<AuditEntry | null> {
      const [row] = await tx
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.subject, subject), inArray(auditLog.action, [...actions])))
        .orderBy(desc(auditLog.id))
        .limit(1);
      return row ?? null;
    },
  };
}
