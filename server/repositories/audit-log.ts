import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

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
  };
}
