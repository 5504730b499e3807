import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openPglite } from '../../../server/db/client.ts';
import { acquirePidLock } from '../../../server/db/pid-lock.ts';
import { createAuditLogRepository } from '../../../server/repositories/audit-log.ts';
import { createProfilesRepository } from '../../../server/repositories/profiles.ts';
import { createRoleBindingsRepository } from '../../../server/repositories/role-bindings.ts';
import { createSessionsRepository } from '../../../server/repositories/sessions.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';
import { HINT, IN_PROCESS, runAdmin as run } from '../helpers/admin-cli.ts';
import { migratedDataDir } from '../helpers/migrated-data-dir.ts';

interface Seed {
  /** [threads user id, username] */
  user: [string, string];
  invite?: string;
  admin?: boolean;
  /** Bound the configured admin role at sign-in (as the server does for a listed username). */
  configuredAdmin?: boolean;
  sessions?: number;
}

/** A fresh data folder whose database holds these users, their invite requests and sessions, in order. */
async function dataDirWith(...seeds: Seed[]): Promise<string> {
  const dataDir = await migratedDataDir('ct-admin-');
  const database = await openPglite(dataDir);
  await database.migrate();
  const users = createUsersRepository(database.db);
  const profiles = createProfilesRepository(database.db);
  const sessions = createSessionsRepository(database.db);
  const roles = createRoleBindingsRepository(database.db);
  for (const seed of seeds) {
    const user = await users.upsertOnSignIn(...seed.user);
    if (seed.admin) await users.setAdmin(user.id, true);
    if (seed.configuredAdmin) await roles.bindOnSignIn(['admin'], seed.user[1], seed.user[0]);
    if (seed.invite !== undefined) await profiles.requestInvite(user.id, seed.invite);
    for (let i = 0; i < (seed.sessions ?? 0); i++) {
      await sessions.create(`hash-${seed.user[0]}-${i}`, user.id, new Date(Date.now() + 86_400_000));
    }
  }
  await database.close();
  return dataDir;
}

test(
  'help goes to stdout with exit 0; a usage error is one line on stderr with exit 2',
  IN_PROCESS,
  async () => {
    // None of these opens the database: the folder need not exist.
    const dataDir = path.join(tmpdir(), 'ct-admin-unused');
    for (const args of [['--help'], ['help'], ['-h']]) {
      const help = await run(dataDir, args);
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(/^usage: npm run admin -- <command>/);
      for (const command of ['users', 'invites', 'approve <user>', 'reject <user>', 'sessions revoke <user>'])
        expect(help.stdout).toContain(command);
    }
    expect(await run(dataDir, ['approve', '--help'])).toMatchObject({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(/^usage: npm run admin -- approve <user>\n/) as unknown,
    });

    const usageErrors: [string[], string][] = [
      [[], 'No command given.'],
      [['promote'], 'Unknown command: promote.'],
      [['users', '--verbose'], 'Unknown option --verbose.'],
      [['approve'], 'approve needs <user>.'],
      [['approve', 'a', 'b'], 'approve takes <user>; unexpected: b.'],
      [['users', 'extra'], 'users takes no arguments; unexpected: extra.'],
      [['grant', 'maren', '--json'], 'grant does not take --json.'],
      [['sessions'], 'sessions needs a subcommand (revoke).'],
      [['sessions', 'list'], 'Unknown sessions subcommand: list.'],
    ];
    for (const [args, problem] of usageErrors) {
      expect(await run(dataDir, args), args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: `${problem} ${HINT}`,
      });
    }
  },
);

test('users and invites list in aligned text and as JSON only', IN_PROCESS, async () => {
  const dataDir = await dataDirWith(
    { user: ['100', 'Zoe'], admin: true },
    { user: ['200', 'ada'], invite: 'ada_designs' },
    { user: ['300', 'bea'], invite: 'bea' },
    { user: ['400', 'admin'], configuredAdmin: true },
  );

  const users = await run(dataDir, ['users']);
  expect(users).toMatchObject({ code: 0, stderr: '' });
  // By username; `admin` is the simulated mode's configured admin.
  expect(users.stdout.split('\n')).toEqual([
    'USERNAME  THREADS USER ID  ADMIN             INVITE',
    '@ada      200              no                pending',
    '@admin    400              yes (configured)  not requested',
    '@bea      300              no                pending',
    '@Zoe      100              yes (granted)     not requested',
  ]);

  const usersJson = await run(dataDir, ['users', '--json']);
  expect(usersJson).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(usersJson.stdout)).toContainEqual({
    threads_username: 'Zoe',
    user_id: '100',
    admin: true,
    admin_granted: true,
    admin_configured: false,
    profile_status: null,
  });
  expect((JSON.parse(usersJson.stdout) as unknown[]).length).toBe(4);

  const invites = await run(dataDir, ['invites']);
  expect(invites).toMatchObject({ code: 0, stderr: '' });
  const [header, ...rows] = invites.stdout.split('\n');
  expect(header).toMatch(/^REQUESTED {2,}USERNAME {2}THREADS USER ID {2}DISPLAY NAME$/);
  // Oldest first: ada asked before bea.
  expect(rows.map((row) => row.split(/ {2,}/).slice(1))).toEqual([
    ['@ada', '200', 'ada_designs'],
    ['@bea', '300', 'bea'],
  ]);

  const invitesJson = await run(dataDir, ['--json', 'invites']);
  expect(invitesJson).toMatchObject({ code: 0, stderr: '' });
  expect(
    (JSON.parse(invitesJson.stdout) as { user_id: string; display_username: string }[]).map((invite) => [
      invite.user_id,
      invite.display_username,
    ]),
  ).toEqual([
    ['200', 'ada_designs'],
    ['300', 'bea'],
  ]);
});

test(
  'approve and reject decide a pending invite with an audit entry; refusals exit 1',
  IN_PROCESS,
  async () => {
    const dataDir = await dataDirWith(
      { user: ['200', 'ada'], invite: 'ada' },
      { user: ['300', 'bea'], invite: 'bea' },
      { user: ['400', 'cy'] },
    );

    expect(await run(dataDir, ['approve', '@Ada'])).toEqual({
      code: 0,
      stdout:
        "@ada's invite request is approved.\nThe profile page is published when the server next starts.",
      stderr: '',
    });
    expect(await run(dataDir, ['reject', 'id:300'])).toEqual({
      code: 0,
      stdout: "@bea's invite request is rejected.",
      stderr: '',
    });
    expect(await run(dataDir, ['reject', 'ada'])).toEqual({
      code: 1,
      stdout: '',
      stderr: '@ada: This request was already decided (approved).',
    });
    expect(await run(dataDir, ['approve', 'cy'])).toEqual({
      code: 1,
      stdout: '',
      stderr: '@cy: This user has not asked for an invite.',
    });
    expect(await run(dataDir, ['approve', 'nobody'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No user @nobody has signed in.',
    });

    const check = await openPglite(dataDir);
    const users = createUsersRepository(check.db);
    const profiles = createProfilesRepository(check.db);
    const audit = createAuditLogRepository(check.db);
    const ada = await users.findByThreadsUserId('200');
    const bea = await users.findByThreadsUserId('300');
    expect((await profiles.findByUser(ada?.id ?? ''))?.status).toBe('approved');
    expect((await profiles.findByUser(bea?.id ?? ''))?.status).toBe('rejected');
    expect(await audit.latest(ada?.id ?? '', ['user.approve', 'user.reject'])).toMatchObject({
      actorUserId: null,
      action: 'user.approve',
      details: { via: 'admin-cli' },
    });
    expect(await audit.latest(bea?.id ?? '', ['user.approve', 'user.reject'])).toMatchObject({
      action: 'user.reject',
    });
    await check.close();
  },
);

test(
  'sessions revoke ends a member’s sessions; every database command refuses a held folder',
  IN_PROCESS,
  async () => {
    const dataDir = await dataDirWith(
      { user: ['200', 'ada'], sessions: 2 },
      { user: ['300', 'bea'], sessions: 1 },
    );

    expect(await run(dataDir, ['sessions', 'revoke', 'ada'])).toEqual({
      code: 0,
      stdout: '@ada is signed out: 2 sessions ended.',
      stderr: '',
    });
    expect(await run(dataDir, ['signout', 'ada'])).toMatchObject({
      code: 0,
      stdout: '@ada is signed out: 0 sessions ended.',
    });
    expect(await run(dataDir, ['signout', 'nobody'])).toMatchObject({
      code: 1,
      stderr: 'No user @nobody has signed in.',
    });
    const check = await openPglite(dataDir);
    const sessions = createSessionsRepository(check.db);
    const now = new Date();
    expect(await sessions.findUser('hash-200-0', now)).toBeNull();
    expect((await sessions.findUser('hash-300-0', now))?.threadsUsername).toBe('bea');
    await check.close();

    // This test process stands in for a running server holding the folder; the CLI, run in it too,
    // finds the lock held all the same (admin-cli-process.test.ts: held by another process).
    const lock = await acquirePidLock(dataDir);
    try {
      for (const args of [['users'], ['invites', '--json'], ['approve', 'ada'], ['signout', 'bea']]) {
        const refused = await run(dataDir, args);
        expect(refused.code, args.join(' ')).toBe(1);
        expect(refused.stdout).toBe('');
        expect(refused.stderr.split('\n')).toHaveLength(1);
        expect(refused.stderr).toMatch(/^Another Curated Threads process \(.*\) is using the data folder /);
      }
    } finally {
      await lock.release();
    }
  },
);

test(
  'check-config prints the settings with secrets hidden; a bad configuration is one line',
  IN_PROCESS,
  async () => {
    const secret = 'a'.repeat(64);
    const env = {
      SESSION_SECRET: secret,
      TOKEN_KEY: secret,
      ADMIN_THREADS_USERNAMES: 'maren,@Studio',
    };
    const text = await run(path.join(tmpdir(), 'ct-admin-unused'), ['check-config'], env);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).not.toContain(secret);
    expect(text.stdout).toMatch(/^SESSION_SECRET +set \(hidden\)$/m);
    expect(text.stdout).toMatch(/^ADMIN_THREADS_USERNAMES +maren, studio$/m);

    const json = await run(path.join(tmpdir(), 'ct-admin-unused'), ['check-config', '--json'], {
      ...env,
      DATABASE_URL: 'postgres://curator:hunter2@db.example:5432/threads',
    });
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(json.stdout).not.toContain(secret);
    expect(json.stdout).not.toContain('hunter2');
    expect(JSON.parse(json.stdout)).toMatchObject({
      TOKEN_KEY: 'set (hidden)',
      THREADS_MODE: 'simulated',
      DATABASE_URL: 'postgres://curator:***@db.example:5432/threads',
    });

    // Every problem of the configuration on the one line, before any database is opened.
    expect(
      await run(path.join(tmpdir(), 'ct-admin-unused'), ['users'], { PORT: 'abc', TOKEN_KEY: 'x' }),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Invalid configuration: PORT: must be a number (got "abc"); TOKEN_KEY: must be 32 bytes as 64 hex digits or base64',
    });
  },
);

test(
  'rebind moves a configured role to a new account under the same username; anything else is refused',
  IN_PROCESS,
  async () => {
    // The name changed hands on Threads: the first account still holds the binding.
    const dataDir = await dataDirWith(
      { user: ['100', 'chief'], configuredAdmin: true },
      { user: ['101', 'chief'] },
    );
    const configured = { ADMIN_THREADS_USERNAMES: 'chief' };
    expect(await run(dataDir, ['rebind', 'admin', 'id:101'], configured)).toEqual({
      code: 0,
      stdout: 'The admin role of @chief now belongs to Threads user id 101.',
      stderr: '',
    });
    const check = await openPglite(dataDir);
    try {
      const roles = createRoleBindingsRepository(check.db);
      expect(await roles.holds('admin', ['chief'], '101')).toBe(true);
      expect(await roles.holds('admin', ['chief'], '100')).toBe(false);
      const chief = await createUsersRepository(check.db).findByThreadsUserId('101');
      const entry = await createAuditLogRepository(check.db).latest(chief?.id ?? '', ['role.rebound.admin']);
      expect(entry).not.toBeNull();
    } finally {
      await check.close();
    }

    expect(await run(dataDir, ['rebind', 'owner', 'id:101'], configured)).toEqual({
      code: 2,
      stdout: '',
      stderr: `rebind takes admin or curator, not owner. ${HINT}`,
    });
    expect(await run(dataDir, ['rebind', 'curator', 'id:101'], configured)).toEqual({
      code: 1,
      stdout: '',
      stderr: '@chief is not in CURATOR_THREADS_USERNAME: add the username there first.',
    });
  },
);
