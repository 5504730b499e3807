import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeEach, expect, test } from 'vitest';
import { profiles, threadsTokens, users } from '../../../../server/db/schema.ts';
import { createUsersRepository, type User } from '../../../../server/repositories/users.ts';
import {
  createTokenStore,
  keepsStoredToken,
  missingCuratorScopes,
} from '../../../../server/services/tokens/token-store.ts';
import { CURATOR_SCOPES } from '../../../../server/threads/settings.ts';
import { TEST_SECRETS } from '../../helpers/app.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

const ISSUED = new Date('2026-01-01T00:00:00Z');
const EXPIRES = new Date('2026-03-01T00:00:00Z');

beforeEach(async () => resetDatabase(await testDatabase()));

async function store(tokenKey = TEST_SECRETS.tokenKey) {
  const { db } = await testDatabase();
  return createTokenStore({ db, tokenKey });
}

/** A user signed up `minutesAgo` minutes ago, with `token` (granted `scopes`) saved through the store. */
async function userWithToken(
  name: string,
  token: string,
  minutesAgo: number,
  scopes: readonly string[] = CURATOR_SCOPES,
): Promise<User> {
  const { db } = await testDatabase();
  const user = await createUsersRepository(db).upsertOnSignIn(`id-${name}`, name);
  await db
    .update(users)
    .set({ createdAt: new Date(Date.now() - minutesAgo * 60_000) })
    .where(eq(users.id, user.id));
  await (await store()).save(user.id, { accessToken: token, scopes, issuedAt: ISSUED, expiresAt: EXPIRES });
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

test(
  'a renewed token replaces the stored one only if nobody replaced it first',
  { tags: ['engine'] },
  async () => {
    const user = await userWithToken('ana', 'first', 1);
    const tokens = await store();
    const stored = await tokens.find(user.id);
    if (!stored) throw new Error('saved');
    expect(await tokens.replaceIfUnchanged(stored, 'second', ISSUED, EXPIRES)).toBe(true);
    expect(await tokens.replaceIfUnchanged(stored, 'third', ISSUED, EXPIRES)).toBe(false);
    expect(await tokens.tokenOf(user)).toBe('second');
  },
);

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

test('the curator is the first holder who granted threads_keyword_search; what it lacks is reported', async () => {
  const { db } = await testDatabase();
  const repository = createUsersRepository(db);
  const basic = await userWithToken('basic_admin', 'token-basic', 20, ['threads_basic']);
  const searcher = await userWithToken('searcher', 'token-searcher', 10, [
    'threads_basic',
    'threads_keyword_search',
  ]);
  await repository.setAdmin(basic.id, true);
  await repository.setAdmin(searcher.id, true);
  const tokens = await store();
  const curator = await tokens.curator({ curatorUsername: null }, []);
  expect([curator?.user.threadsUsername, curator?.missing]).toEqual([
    'searcher',
    ['threads_manage_insights', 'threads_content_publish'],
  ]);
  // Nobody granted search: the longest-standing one still curates, and the lack is reported.
  await repository.setAdmin(searcher.id, false);
  const fallback = await tokens.curator({ curatorUsername: null }, []);
  expect(fallback?.user.threadsUsername).toBe('basic_admin');
  expect(fallback?.missing).toEqual(missingCuratorScopes(['threads_basic']));
  expect(fallback?.missing).toContain('threads_keyword_search');
});

test('a member-scope sign-in keeps a valid stored token that grants more; anything else replaces it', () => {
  const stored = { scopes: [...CURATOR_SCOPES], expiresAt: EXPIRES };
  const basic = { accessToken: 'x', scopes: ['threads_basic'], issuedAt: ISSUED, expiresAt: EXPIRES };
  expect(keepsStoredToken(stored, false, basic)).toBe(true);
  expect(keepsStoredToken(stored, true, basic)).toBe(false); // Threads refused the stored one
  expect(keepsStoredToken({ ...stored, expiresAt: ISSUED }, false, basic)).toBe(false); // expired
  expect(keepsStoredToken({ scopes: ['threads_basic'], expiresAt: EXPIRES }, false, basic)).toBe(false);
  expect(keepsStoredToken(null, false, basic)).toBe(false);
  // A deliberate connect with a box unticked replaces the wider token: the person chose that grant.
  const narrower = { ...basic, scopes: ['threads_basic', 'threads_keyword_search'] };
  expect(keepsStoredToken(stored, false, narrower)).toBe(false);
});
