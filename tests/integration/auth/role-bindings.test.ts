import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { roleBindings, users } from '../../../server/db/schema.ts';
import { isAdmin } from '../../../server/plugins/access.ts';
import { createRoleBindingsRepository } from '../../../server/repositories/role-bindings.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';
import { createTokenStore } from '../../../server/services/tokens/token-store.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { api, signIn, startApp } from './helpers.ts';

// Simulated mode: `admin` is the configured admin; `cura` is the configured curator.
const CURATOR = 'cura';
/** The Threads user id of whoever held a username before the person signing in now. */
const EARLIER_HOLDER = '17841499999999999';

let app: FastifyInstance;
let base: string;
beforeAll(async () => ({ app, base } = await startApp({ CURATOR_THREADS_USERNAME: CURATOR })));
afterAll(() => app.close());
beforeEach(async () => resetDatabase(await testDatabase()));

const adminRoute = (cookie: string) => api(base, '/api/admin/runs', { cookie });

async function bindings() {
  const { db } = await testDatabase();
  return db
    .select({ role: roleBindings.role, username: roleBindings.username, id: roleBindings.threadsUserId })
    .from(roleBindings)
    .orderBy(roleBindings.role);
}

/** What Threads shows when a person renames: the next sign-in (or this update) records the new name. */
async function rename(username: string, to: string): Promise<void> {
  const { db } = await testDatabase();
  await db
    .update(users)
    .set({ threadsUsername: to })
    .where(eq(users.threadsUserId, simulatedUserId(username)));
}

async function curator(adminUsernames: string[] = ['admin'], curatorUsername: string | null = CURATOR) {
  const { db } = await testDatabase();
  const found = await createTokenStore({ db, tokenKey: TEST_SECRETS.tokenKey }).curator(
    { curatorUsername },
    adminUsernames,
  );
  return found?.user.threadsUserId ?? null;
}

describe('a configured role binds to the Threads user id at first sign-in', () => {
  test(
    'the first sign-in under a configured username binds it; a plain user binds nothing',
    { tags: ['engine'] },
    async () => {
      await signIn(base, 'Admin');
      await signIn(base, CURATOR);
      await signIn(base, 'dana');
      await signIn(base, 'admin');
      expect(await bindings()).toEqual([
        { role: 'admin', username: 'admin', id: simulatedUserId('admin') },
        { role: 'curator', username: CURATOR, id: simulatedUserId(CURATOR) },
      ]);
    },
  );

  test('the original admin keeps the role after renaming on Threads', async () => {
    const cookie = await signIn(base, 'admin');
    expect((await adminRoute(cookie)).status).toBe(200);
    await rename('admin', 'admin_elsewhere');
    expect((await adminRoute(cookie)).status).toBe(200);
    expect(await curator(['admin'], null)).toBe(simulatedUserId('admin'));
  });

  test('a newcomer who now holds the admin username is not an admin, nor the curator', async () => {
    const { db } = await testDatabase();
    await createRoleBindingsRepository(db).bindOnSignIn(['admin'], 'admin', EARLIER_HOLDER);
    const cookie = await signIn(base, 'admin');
    const response = await adminRoute(cookie);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ detail: 'Only administrators can do this.' });
    // The binding stays with the earlier holder; signing in again changes nothing.
    await signIn(base, 'admin');
    expect(await bindings()).toEqual([{ role: 'admin', username: 'admin', id: EARLIER_HOLDER }]);
    expect(await curator(['admin'], null)).toBeNull();
  });

  test('the curator follows the bound person, not the username', async () => {
    await signIn(base, CURATOR);
    await rename(CURATOR, 'cura_renamed');
    expect(await curator()).toBe(simulatedUserId(CURATOR));

    await resetDatabase(await testDatabase());
    const { db } = await testDatabase();
    await createRoleBindingsRepository(db).bindOnSignIn(['curator'], CURATOR, EARLIER_HOLDER);
    await signIn(base, CURATOR);
    expect(await curator()).toBeNull();
  });

  test('a binding counts only while its username is configured; the CLI grant counts regardless', async () => {
    await signIn(base, 'admin');
    await signIn(base, 'dana');
    const { db } = await testDatabase();
    const repository = createUsersRepository(db);
    const admin = await repository.findByThreadsUserId(simulatedUserId('admin'));
    const dana = await repository.findByThreadsUserId(simulatedUserId('dana'));
    if (!admin || !dana) throw new Error('both signed in');
    expect([await isAdmin(admin, ['admin'], db), await isAdmin(admin, [], db)]).toEqual([true, false]);
    expect(await isAdmin(dana, ['admin'], db)).toBe(false);
    expect(await isAdmin({ ...dana, isAdmin: true }, [], db)).toBe(true);
  });
});
