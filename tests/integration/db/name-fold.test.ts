import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { foldName } from '../../../contract/name-fold.ts';
import { MIGRATIONS_FOLDER } from '../../../server/db/client.ts';
import { isUniqueViolation } from '../../../server/db/errors.ts';
import { foldedName } from '../../../server/db/name-fold.ts';
import { profiles, users } from '../../../server/db/schema.ts';
import { createProfilesRepository } from '../../../server/repositories/profiles.ts';
import type { Database } from '../../../server/db/client.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The database's half of lookalike names (decision 065): it folds as the contract does, finds the
// folded forms through their indexes, and holds one display name per folded form.
beforeEach(async () => resetDatabase(await testDatabase()));
afterEach(async () => resetDatabase(await testDatabase()));

/** Thrown to end a transaction that only looked, so what it dropped comes back. */
class RolledBack extends Error {}
async function rolledBack(db: Database, work: (tx: Database) => Promise<void>): Promise<void> {
  await db
    .transaction(async (tx) => {
      await work(tx);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

async function addMember(db: Database, handle: string, name: string | null, decidedAt: string | null) {
  const [user] = await db
    .insert(users)
    .values({ threadsUserId: `id-${handle}`, threadsUsername: handle })
    .returning();
  if (!user) throw new Error('no user');
  const status = decidedAt ? 'approved' : 'pending';
  await db.insert(profiles).values({
    userId: user.id,
    status,
    displayUsername: name,
    decidedAt: decidedAt ? new Date(decidedAt) : null,
  });
  return user.id;
}

test('SQL folds every name as foldName does', { tags: ['engine'] }, async () => {
  const { db } = await testDatabase();
  const corpus = ['Adm1n', 'ORI.UX', 'o_r_i_u_x', 'L1LI', 'b0B', "it's", '', 'a-9z2', 'Maren_Makes.01'];
  for (const name of corpus) {
    const [row] = rowsOf(await db.execute(sql`select ${foldedName(sql`${name}::text`)} as folded`));
    expect(row?.folded, name).toBe(foldName(name));
  }
});

test('the lookups by folded form use their indexes', { tags: ['engine'] }, async () => {
  const { db } = await testDatabase();
  const plans: string[] = [];
  await rolledBack(db, async (tx) => {
    // On an empty table a scan would win: only whether the index can answer is asked here.
    await tx.execute(sql`set local enable_seqscan = off`);
    for (const [table, column] of [
      [profiles, profiles.displayUsername],
      [users, users.threadsUsername],
    ] as const) {
      const result = await tx.execute(
        sql`explain select 1 from ${table} where ${foldedName(column)} = ${foldName('ori_ux')}`,
      );
      plans.push(JSON.stringify(rowsOf(result)));
    }
  });
  expect(plans[0]).toContain('profiles_display_username_folded');
  expect(plans[1]).toContain('users_threads_username_folded');
  for (const plan of plans) expect(plan).toContain('Index Cond');
});

test(
  'the database refuses a lookalike of a held name even past the route (two saves at once)',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    await addMember(db, 'holder', 'grid_master', '2026-01-01');
    const other = await addMember(db, 'other', 'other_name', '2026-01-02');
    const clash = await createProfilesRepository(db)
      .updateApproved(other, 'GR1D_master', '')
      .catch((error: unknown) => error);
    expect(isUniqueViolation(clash)).toBe(true);
  },
);

test(
  'the migration keeps, of names already alike, the one approved first; the others choose again',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    const journal = JSON.parse(
      await readFile(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
    ) as { entries: { tag: string }[] };
    const tag = journal.entries.find((entry) => entry.tag.endsWith('_lookalike_names'))?.tag;
    const migration = await readFile(path.join(MIGRATIONS_FOLDER, `${tag ?? 'missing'}.sql`), 'utf8');
    const kept: Record<string, string | null> = {};
    await rolledBack(db, async (tx) => {
      // The database as it was before the migration: names could be alike.
      await tx.execute(sql`drop index profiles_display_username_folded`);
      await tx.execute(sql`drop index users_threads_username_folded`);
      const later = await addMember(tx, 'later', 'ori_ux', '2026-02-01');
      const first = await addMember(tx, 'first', 'oriux', '2026-01-01');
      const waiting = await addMember(tx, 'waiting', '0ri_ux', null);
      const apart = await addMember(tx, 'apart', 'maren', '2026-03-01');
      for (const statement of migration.split('--> statement-breakpoint'))
        await tx.execute(sql.raw(statement));
      for (const [who, id] of Object.entries({ later, first, waiting, apart })) {
        const [row] = await tx.select().from(profiles).where(eq(profiles.userId, id));
        kept[who] = row?.displayUsername ?? null;
      }
    });
    expect(kept).toEqual({ later: null, first: 'oriux', waiting: null, apart: 'maren' });
  },
);
