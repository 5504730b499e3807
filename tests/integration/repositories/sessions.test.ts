import { beforeEach, expect, test } from 'vitest';
import { createSessionsRepository } from '../../../server/repositories/sessions.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

beforeEach(async () => resetDatabase(await testDatabase()));

test('the daily purge removes expired sessions only', async () => {
  const { db } = await testDatabase();
  const user = await createUsersRepository(db).upsertOnSignIn('17841400000000101', 'purged');
  const sessions = createSessionsRepository(db);
  const now = new Date('2026-11-21T12:00:00Z');
  await sessions.create('expired-a', user.id, new Date(now.getTime() - 1000));
  await sessions.create('expired-b', user.id, now);
  await sessions.create('live', user.id, new Date(now.getTime() + 1000));

  expect(await sessions.deleteExpired(now)).toBe(2);
  expect(await sessions.deleteExpired(now)).toBe(0);
  expect(await sessions.findUser('live', now)).toMatchObject({ id: user.id });
});
