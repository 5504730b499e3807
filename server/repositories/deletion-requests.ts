import { desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { deletionRequests } from '../db/schema.ts';

export type DeletionRequest = typeof deletionRequests.$inferSelect;

/** Data-deletion requests from Meta's callback, looked up by their confirmation code. */
export function createDeletionRequestsRepository(db: Database) {
  return {
    async create(
      confirmationCode: string,
      threadsUserId: string,
      tx: Database = db,
    ): Promise<DeletionRequest> {
      const [row] = await tx
        .insert(deletionRequests)
        .values({ confirmationCode, threadsUserId, status: 'completed', completedAt: new Date() })
        .returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    },

    async findByCode(confirmationCode: string, tx: Database = db): Promise<DeletionRequest | null> {
      const [row] = await tx
        .select()
        .from(deletionRequests)
        .where(eq(deletionRequests.confirmationCode, confirmationCode));
      return row ?? null;
    },

    async latestForThreadsUser(threadsUserId: string, tx: Database = db): Promise<DeletionRequest | null> {
      const [row] = await tx
        .select()
        .from(deletionRequests)
        .where(eq(deletionRequests.threadsUserId, threadsUserId))
        .orderBy(desc(deletionRequests.createdAt))
        .limit(1);
      return row ?? null;
    },
  };
}
