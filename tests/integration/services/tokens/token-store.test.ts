import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeEach, expect, test } from 'vitest';
import { profiles, threadsTokens, users } from '../../../../server/db/schema.ts';
import { createUsersRepository, type User } from '../../../../server/repositories/users.ts';
import { createTokenStore } from '../../../../server/services/tokens/token-store.ts';
import { TEST_SECRETS } from '../../helpers/app.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

const ISSUED = new Date('2026-01-01T00:00:00Z');
const EXPIRES = new Date('2026-03-01T00:00:00Z');

beforeEach(async () => resetDatabase(await testDatabase()));

async function store(tokenKey = TEST_SECRETS.tokenKey) {
  const { db } = await testDatabase();
  return createTokenStore({ db, tokenKey });
}

/** A user signed up `minutesAgo` minutes ago, with `token` saved through the store. */
async function userWithToken(name: string, token: string, minutesAgo: number): Promise<User> {
  const { db } = await testDatabase();
  const user = await createUsersRepository(db).upsertOnSignIn(`id-${name}`, name);
  await db
    .update(users)
    .set({ createdAt: new Date(Date.now() - minutesAgo * 60_000) })
    .where(eq(users.id, user.id));
  await (await store()).save(user.id, token, ISSUED, EXPIRES);
  return user;
}

test('a saved token is stored sealed and revealed as it was', async () => {
  const { db } = await testDatabase();
  const user = await userWithToken('ana', 'secret-token', 1);
  const [row] = await db.select().from(threadsTokens);
  expect(row?.ciphertext).not.toContain('secret-token');
  expect(row).toMatchObject({ userId: user.id, issuedAt: ISSUED, expiresAt: EXPIRES });
  const tokens = await store();
  const stored = await tokens.find(user.id);
  if (!stored) throw new Error('saved');
  expect(tokens.reveal(stored)).toBe('secret-token');
  expect(await tokens.tokenOf(user)).toBe('secret-token');
});

test('tokenOf is null without a token, when the user must reconnect, or under another key', async () => {
  const { db } = await testDatabase();
  const user = await userWithToken('ana', 'secret-token', 1);
  const plain = await createUsersRepository(db).upsertOnSignIn('id-bo', 'bo');
  const tokens = await store();
  expect(await tokens.tokenOf(plain)).toBeNull();
  expect(await tokens.tokenOf({ ...user, reconnectNeeded: true })).toBeNull();
  expect(await (await store(randomBytes(32))).tokenOf(user)).toBeNull();
});

test('a renewed token replaces the stored one only if nobody replaced it first', async () => {
  const user = await userWithToken('ana', 'first', 1);
  const tokens = await store();
  const stored = await tokens.find(user.id);
  if (!stored) throw new Error('saved');
  expect(await tokens.replaceIfUnchanged(stored, 'second', ISSUED, EXPIRES)).toBe(true);
  expect(await tokens.replaceIfUnchanged(stored, 'third', ISSUED, EXPIRES)).toBe(false);
  expect(await tokens.tokenOf(user)).toBe('second');
});

test('approved members with a working token come longest-standing first', async () => {
  const { db } = await testDatabase();
  const newer = await userWithToken('newer', 'token-newer', 1);
  const older = await userWithToken('older', 'token-older', 10);
  const pending = await userWithToken('pending', 'token-pending', 20);
  const away = await userWithToken('away', 'token-away', 30);
  await db.insert(profiles).values([
    { userId: newer.id, status: 'approved' },
    { userId: older.id, status: 'approved' },
    { userId: pending.id, status: 'pending' },
    { userId: away.id, status: 'approved' },
  ]);
  await createUsersRepository(db).setReconnectNeeded(away.id, true);
  const members = await (await store()).membersWithTokens();
  expect(members.map(({ user, token }) => [user.threadsUsername, token])).toEqual([
    ['older', 'token-older'],
    ['newer', 'token-newer'],
  ]);
});

test('without a configured curator, the longest-standing admin with a token searches', async () => {
  const { db } = await testDatabase();
  const repository = createUsersRepository(db);
  await userWithToken('plain', 'token-plain', 30);
  const admin = await userWithToken('admin', 'token-admin', 10);
  const earlier = await userWithToken('earlier', 'token-earlier', 20);
  await repository.setAdmin(admin.id, true);
  await repository.setAdmin(earlier.id, true);
  await repository.setReconnectNeeded(earlier.id, true);
  const tokens = await store();
  const curator = await tokens.curator({ curatorUsername: null }, []);
  expect([curator?.user.threadsUsername, curator?.token]).toEqual(['admin', 'token-admin']);
  expect(await tokens.curator({ curatorUsername: 'plain' }, [])).toBeNull();
});
