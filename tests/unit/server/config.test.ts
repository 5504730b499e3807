import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';

/** The ConfigError message loadConfig gives for env (it must refuse it). */
function problems(env: NodeJS.ProcessEnv, cwd?: string): string {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig', () => {
  test('a fresh machine needs no variables: local defaults and the simulated provider', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 4321,
      host: '127.0.0.1',
      secure: false,
      dataDir: '/srv/app/.data',
      databaseUrl: undefined,
    });
    expect(config.publicUrl.href).toBe('http://127.0.0.1:4321/');
    expect(config.threads.mode).toBe('simulated');
    expect(config.refreshIntervalMinutes).toBe(60);
  });

  test('slow clients: a 30 s request timeout and 128 connections per address unless set; 0 turns the cap off', () => {
    expect(loadConfig({}).connections).toEqual({ requestTimeoutMs: 30_000, maxPerAddress: 128 });
    expect(
      loadConfig({ REQUEST_TIMEOUT_SECONDS: '5', MAX_CONNECTIONS_PER_ADDRESS: '0' }).connections,
    ).toEqual({ requestTimeoutMs: 5_000, maxPerAddress: 0 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(
      'REQUEST_TIMEOUT_SECONDS: must be at least 1',
    );
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '-1' })).toThrow(
      'MAX_CONNECTIONS_PER_ADDRESS: must be 0 (no cap) or more',
    );
  });

  test('member publishes: at most one per 5 minutes unless set; 0 turns the cap off', () => {
    expect(loadConfig({}).memberPublishIntervalMinutes).toBe(5);
    expect(loadConfig({ MEMBER_PUBLISH_INTERVAL_MINUTES: '0' }).memberPublishIntervalMinutes).toBe(0);
    expect(() => loadConfig({ MEMBER_PUBLISH_INTERVAL_MINUTES: '2.5' })).toThrow(
      'MEMBER_PUBLISH_INTERVAL_MINUTES: must be a whole number',
    );
    expect(() => loadConfig({ MEMBER_PUBLISH_INTERVAL_MINUTES: '1441' })).toThrow(
      'MEMBER_PUBLISH_INTERVAL_MINUTES: must be at most 1440 (a day)',
    );
  });

  test('empty values count as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(4321);
  });

  test('https public origin turns on secure mode; a Threads app turns on live mode', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://curated.example',
      THREADS_APP_ID: '123',
      THREADS_APP_SECRET: 'a'.repeat(32),
    });
    expect(config.secure).toBe(true);
    expect(config.threads.mode).toBe('live');
  });

  test('lists every bad variable in one readable message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', REFRESH_INTERVAL_MINUTES: '1', PUBLIC_URL: 'ftp://x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      [
        'Invalid configuration:',
        '  PORT: must be a number (got "eighty")',
        '  PUBLIC_URL: must be an http(s) URL such as https://curated.example (got "ftp://x")',
        '  REFRESH_INTERVAL_MINUTES: must be at least 5 (got "1")',
      ].join('\n'),
    );
  });

  test('lists the problems across variables together with the bad variables, in one message', () => {
    const message = problems(
      {
        NODE_ENV: 'production',
        REFRESH_INTERVAL_MINUTES: '1',
        SITE_DIR: '.data/site',
        PUBLIC_URL: 'https://curated.example',
        API_BASE_URL: 'http://api.curated.example',
        DEPLOY_HOOK_URL: 'http://hooks.example/hunter2',
      },
      '/srv/app',
    );
    expect(message).toBe(
      [
        'Invalid configuration:',
        '  REFRESH_INTERVAL_MINUTES: must be at least 5 (got "1")',
        '  NODE_ENV=production without a Threads app: set THREADS_APP_ID and THREADS_APP_SECRET, or THREADS_MODE=simulated to run the simulated provider on purpose.',
        '  NODE_ENV=production needs SESSION_SECRET and TOKEN_KEY (generate them with: openssl rand -hex 32). They are only generated automatically in development.',
        '  SITE_DIR and DATA_DIR must be separate folders (/srv/app/.data/site, /srv/app/.data)',
        '  DEPLOY_HOOK_URL must use https (plain http is allowed only to a loopback address such as 127.0.0.1).',
        "  API_BASE_URL: must use PUBLIC_URL's scheme (https): the session cookie only travels within one site",
      ].join('\n'),
    );
    expect(message).not.toContain('hunter2');
  });

  test('a check across variables is left out when a variable it reads is itself bad', () => {
    expect(problems({ THREADS_APP_ID: '1', THREADS_APP_SECRET: 'short-secret' })).toBe(
      'Invalid configuration:\n  THREADS_APP_SECRET: looks too short for a Threads app secret',
    );
    expect(problems({ NODE_ENV: 'production', THREADS_MODE: 'simulated', TOKEN_KEY: 'hunter2' })).toBe(
      'Invalid configuration:\n  TOKEN_KEY: must be 32 bytes as 64 hex digits or base64',
    );
    expect(problems({ PORT: 'eighty', API_BASE_URL: 'https://api.curated.example' })).toBe(
      'Invalid configuration:\n  PORT: must be a number (got "eighty")',
    );
  });

  test('DATABASE_LISTEN_URL: DATABASE_URL by default, its own when set, refused without PostgreSQL', () => {
    const pooled = 'postgres://app:pw@pgbouncer:6432/curated';
    const direct = 'postgres://app:pw@db:5432/curated';
    expect(loadConfig({ DATABASE_URL: pooled }).databaseListenUrl).toBe(pooled);
    expect(loadConfig({ DATABASE_URL: pooled, DATABASE_LISTEN_URL: direct }).databaseListenUrl).toBe(direct);
    expect(loadConfig({}).databaseListenUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_LISTEN_URL: direct })).toThrow(
      /DATABASE_LISTEN_URL is for PostgreSQL/,
    );
    expect(() => loadConfig({ DATABASE_URL: pooled, DATABASE_LISTEN_URL: 'mysql://app:hunter2@db' })).toThrow(
      /DATABASE_LISTEN_URL: must start with postgres/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: pooled, DATABASE_LISTEN_URL: 'mysql://app:hunter2@db' }),
    ).not.toThrow(/hunter2/);
  });

  test('never echoes a secret value back', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db' })).toThrow(
      /DATABASE_URL: must start with postgres/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db' })).not.toThrow(/hunter2/);
    const shortSecret = { THREADS_APP_ID: '1', THREADS_APP_SECRET: 'short-secret' };
    expect(() => loadConfig(shortSecret)).toThrow(/THREADS_APP_SECRET: looks too short/);
    expect(() => loadConfig(shortSecret)).not.toThrow(/short-secret/);
    expect(() => loadConfig({ SMTP_URL: 'http://mailer:hunter2@smtp.example' })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => loadConfig({ SMTP_URL: 'http://mailer:hunter2@smtp.example' })).not.toThrow(/hunter2/);
  });

  test('mail: SMTP_URL optional, MAIL_FROM defaulting to the public host, the digest settings bounded', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://curated.example',
      SMTP_URL: 'smtps://u:p@smtp.example:465',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://u:p@smtp.example:465',
      from: '"Curated Threads" <digest@curated.example>',
    });
    expect(config.digest).toEqual({ size: 10, holdHours: 24, threadsPost: false });
    expect(loadConfig({ DIGEST_THREADS_POST: 'true' }).digest.threadsPost).toBe(true);
    expect(() => loadConfig({ DIGEST_THREADS_POST: 'yes' })).toThrow(
      /DIGEST_THREADS_POST: must be true or false/,
    );
    expect(loadConfig({}).mail.smtpUrl).toBeUndefined();
    expect(loadConfig({ MAIL_FROM: 'Design Digest <hi@example.com>' }).mail.from).toBe(
      'Design Digest <hi@example.com>',
    );
    expect(() => loadConfig({ MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM: must be an address/);
    expect(() => loadConfig({ DIGEST_SIZE: '0' })).toThrow(/DIGEST_SIZE: must be at least 1/);
    expect(() => loadConfig({ DIGEST_HOLD_HOURS: '145' })).toThrow(/DIGEST_HOLD_HOURS: must be at most 144/);
  });

  test.each([
    [{ THREADS_APP_ID: '123' }, /must be set together/],
    [{ THREADS_MODE: 'live' }, /THREADS_MODE=live needs/],
    [{ NODE_ENV: 'production' }, /NODE_ENV=production without a Threads app/],
  ])('refuses an inconsistent Threads setup: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  test('production may run the simulated provider only when asked explicitly', () => {
    const secrets = { SESSION_SECRET: 'x'.repeat(32), TOKEN_KEY: 'ab'.repeat(32) };
    expect(loadConfig({ NODE_ENV: 'production', THREADS_MODE: 'simulated', ...secrets }).threads.mode).toBe(
      'simulated',
    );
  });

  test('production refuses to generate secrets; they are never echoed', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', THREADS_MODE: 'simulated' })).toThrow(
      'NODE_ENV=production needs SESSION_SECRET and TOKEN_KEY',
    );
    expect(() => loadConfig({ TOKEN_KEY: 'not-a-key-hunter2' })).toThrow('TOKEN_KEY: must be 32 bytes');
    expect(() => loadConfig({ TOKEN_KEY: 'not-a-key-hunter2' })).not.toThrow(/hunter2/);
  });

  test('admins: `admin` by default in simulated mode; lists ignore case and a leading @', () => {
    expect(loadConfig({}).adminUsernames).toEqual(['admin']);
    expect(loadConfig({ ADMIN_THREADS_USERNAMES: ' @Maren.Makes, tobi ' }).adminUsernames).toEqual([
      'maren.makes',
      'tobi',
    ]);
    const live = { THREADS_APP_ID: '1', THREADS_APP_SECRET: 'a'.repeat(32) };
    expect(loadConfig(live).adminUsernames).toEqual([]);
    expect(loadConfig({ ALLOWED_THREADS_USERNAMES: 'Alice,@bob' }).allowedUsernames).toEqual([
      'alice',
      'bob',
    ]);
  });
});

describe('folders', () => {
  test.each([
    [{ SITE_DIR: '.data/site' }, 'SITE_DIR and DATA_DIR must be separate folders'],
    [{ CATALOGUE_DIR: '.data' }, 'CATALOGUE_DIR and DATA_DIR must be separate folders'],
    [{ SITE_DIR: 'data' }, 'SITE_DIR and SAMPLE_CATALOGUE_DIR must be separate folders'],
    [{ SITE_DIR: '.data/catalogue' }, 'SITE_DIR and CATALOGUE_DIR must be separate folders'],
    [{ CATALOGUE_DIR: 'data' }, 'CATALOGUE_DIR and SAMPLE_CATALOGUE_DIR must be separate folders'],
    [{ DATA_DIR: 'data/db' }, 'DATA_DIR and SAMPLE_CATALOGUE_DIR must be separate folders'],
    [{ SITE_DIR: '.' }, 'SITE_DIR must not contain the project'],
    [{ SITE_DIR: '..' }, 'SITE_DIR must not contain the project'],
  ])('refuses overlapping folders: %o', (env, message) => {
    expect(() => loadConfig(env, '/srv/app')).toThrow(message);
  });

  test('the exported catalogue lives in DATA_DIR unless CATALOGUE_DIR says otherwise', () => {
    expect(loadConfig({}, '/srv/app').catalogueDir).toBe('/srv/app/.data/catalogue');
    expect(loadConfig({ DATA_DIR: '/var/ct' }, '/srv/app').catalogueDir).toBe('/var/ct/catalogue');
    expect(loadConfig({ CATALOGUE_DIR: 'public-data' }, '/srv/app').catalogueDir).toBe(
      '/srv/app/public-data',
    );
    expect(loadConfig({}, '/srv/app').sampleCatalogueDir).toBe('/srv/app/data');
  });

  test('SERVE_SITE=false runs the API without the pages; anything but true/false is refused', () => {
    expect(loadConfig({}).serveSite).toBe(true);
    expect(loadConfig({ SERVE_SITE: 'false' }).serveSite).toBe(false);
    expect(() => loadConfig({ SERVE_SITE: 'no' })).toThrow('SERVE_SITE: must be true or false (got "no")');
  });

  test('deploy triggers: unset by default; the hook must be https (http only to loopback), never echoed', () => {
    expect(loadConfig({}).deploy).toEqual({ hookUrl: undefined, command: undefined });
    const hook = 'https://api.netlify.com/build_hooks/hunter2?trigger_title=Catalogue';
    expect(loadConfig({ DEPLOY_HOOK_URL: hook }).deploy.hookUrl?.href).toBe(hook);
    for (const local of ['http://127.0.0.1:4701/hook', 'http://localhost/hook', 'http://[::1]:8080/hook']) {
      expect(loadConfig({ DEPLOY_HOOK_URL: local }).deploy.hookUrl?.href).toBe(local);
    }
    expect(() => loadConfig({ DEPLOY_HOOK_URL: 'http://hooks.example/hunter2' })).toThrow(
      'DEPLOY_HOOK_URL must use https (plain http is allowed only to a loopback address',
    );
    expect(() => loadConfig({ DEPLOY_HOOK_URL: 'http://hooks.example/hunter2' })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ DEPLOY_HOOK_URL: 'ftp://hooks.example/hunter2' })).toThrow(
      'DEPLOY_HOOK_URL: must be an https URL',
    );
    expect(() => loadConfig({ DEPLOY_HOOK_URL: 'not a url hunter2' })).not.toThrow(/hunter2/);
    expect(
      loadConfig({ DEPLOY_COMMAND: '  npm run build && npx wrangler pages deploy dist ' }).deploy.command,
    ).toBe('npm run build && npx wrangler pages deploy dist');
    expect(loadConfig({ DEPLOY_COMMAND: '   ' }).deploy.command).toBeUndefined();
  });
});
