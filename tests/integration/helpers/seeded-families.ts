import { sql } from 'drizzle-orm';
import type { Database } from '../../../server/db/client.ts';
import { ensureSchedule } from '../../../server/db/job-leases.ts';
import { threads } from '../../../server/db/schema.ts';
import { createAppMetaRepository } from '../../../server/repositories/app-meta.ts';
import { createAuditLogRepository } from '../../../server/repositories/audit-log.ts';
import { createCurationRunsRepository } from '../../../server/repositories/curation-runs.ts';
import { createGemsRepository } from '../../../server/repositories/gems.ts';
import { createProfilesRepository } from '../../../server/repositories/profiles.ts';
import { createRoleBindingsRepository } from '../../../server/repositories/role-bindings.ts';
import { createSessionsRepository } from '../../../server/repositories/sessions.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';
import type { RunSql } from '../../../server/services/backups/table-counts.ts';
import { createTokenStore } from '../../../server/services/tokens/token-store.ts';
import { threadRows } from './approved-threads.ts';

/** The Threads token the seeded member holds (sealed with the data folder's token key). */
export const SEEDED_TOKEN = 'THREADS-ACCESS-TOKEN-of-maren';
export const SEEDED_USER_ID = '17841400000000042';

/** The tables `seedEveryFamily` puts rows in: a restore must bring each of them back. */
export const SEEDED_TABLES = [
  'app_meta',
  'audit_log',
  'catalogue_changes',
  'curation_runs',
  'gems',
  'job_schedules',
  'profiles',
  'role_bindings',
  'sessions',
  'threads',
  'threads_tokens',
  'users',
];

/**
 * Rows in every table family a server fills: members and their invites, sessions, sealed tokens,
 * role bindings, threads (approved ones log catalogue changes), gems, runs, the audit log, the
 * job schedule and app meta.
 */
export async function seedEveryFamily(db: Database, tokenKey: Buffer): Promise<void> {
  const users = createUsersRepository(db);
  const maren = await users.upsertOnSignIn(SEEDED_USER_ID, 'Maren');
  const studio = await users.upsertOnSignIn('17841400000000043', 'studio');
  await createProfilesRepository(db).requestInvite(maren.id, 'Maren K');
  await createProfilesRepository(db).requestInvite(studio.id, null);
  await createSessionsRepository(db).create('hash-of-a-session', maren.id, new Date(Date.now() + 86_400_000));
  await createTokenStore({ db, tokenKey }).save(maren.id, {
    accessToken: SEEDED_TOKEN,
    scopes: ['threads_basic'],
    issuedAt: new Date(),
    expiresAt: new Date(Date.now() + 60 * 86_400_000),
  });
  await createRoleBindingsRepository(db).bindOnSignIn(['admin'], 'maren', SEEDED_USER_ID);
  const inserted = await db.insert(threads).values(threadRows(30)).returning({ id: threads.id });
  const gems = createGemsRepository(db);
  for (const { id } of inserted.slice(0, 3)) await gems.save(maren.id, id);
  const runs = createCurationRunsRepository(db);
  await runs.start('schedule');
  await createAuditLogRepository(db).record({ actorUserId: maren.id, action: 'seeded', subject: maren.id });
  await ensureSchedule(db, 'backup', { firstRunAfterMs: 60_000, intervalMs: 3_600_000 });
  await createAppMetaRepository(db).set('seeded', 'yes');
}

/** Runs statements through Drizzle, on PGlite or PostgreSQL alike. */
export function runSqlOn(db: Database): RunSql {
  return async (statement) => {
    const result = (await db.execute(sql.raw(statement))) as unknown as { rows: Record<string, unknown>[] };
    return result.rows;
  };
}
