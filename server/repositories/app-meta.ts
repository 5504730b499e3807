import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { appMeta } from '../db/schema.ts';

/** Key/value facts about the database itself (e.g. the version that last started on it). */
export const appMetaRepository = {
  /** The value stored under `key`, or null. */
  async get(key: string, db: Database): Promise<string | null> {
    const rows = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
    return rows[0]?.value ?? null;
  },

  /** Inserts or replaces the value under `key`. */
  async set(key: string, value: string, db: Database): Promise<void> {
    await db
      .insert(appMeta)
      .values({ key, value })
      .onConflictDoUpdate({ target: appMeta.key, set: { value, updatedAt: new Date() } });
  },
};
