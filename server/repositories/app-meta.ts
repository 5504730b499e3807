import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { appMeta } from '../db/schema.ts';

/** Key/value facts about the database itself (e.g. the version that last started on it). */
export function createAppMetaRepository(db: Database) {
  return {
    /** The value stored under `key`, or null. Pass `tx` to read inside a transaction. */
    async get(key: string, tx: Database = db): Promise<string | null> {
      const rows = await tx.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
      return rows[0]?.value ?? null;
    },

    /** Inserts or replaces the value under `key`. */
    async set(key: string, value: string, tx: Database = db): Promise<void> {
      await tx
        .insert(appMeta)
        .values({ key, value })
        .onConflictDoUpdate({ target: appMeta.key, set: { value, updatedAt: new Date() } });
    },
  };
}

export type AppMetaRepository = ReturnType<typeof createAppMetaRepository>;
