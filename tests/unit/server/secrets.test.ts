import { randomBytes } from 'node:crypto';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { loadSecrets } from '../../../server/secrets.ts';

test('in development the secrets are generated once into DATA_DIR, private, and reused', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-secrets-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const first = await loadSecrets(config);
  expect(first.tokenKey).toHaveLength(32);
  expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
  expect((await stat(path.join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);
  expect(await loadSecrets(config)).toEqual(first);
});

test('secrets from the environment win, in hex or base64', async () => {
  const key = randomBytes(32);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-secrets-'));
  for (const TOKEN_KEY of [key.toString('hex'), key.toString('base64')]) {
    const config = loadConfig({ DATA_DIR: dataDir, TOKEN_KEY, SESSION_SECRET: 's'.repeat(40) });
    const secrets = await loadSecrets(config);
    expect(secrets.tokenKey.equals(key)).toBe(true);
    expect(secrets.sessionSecret).toBe('s'.repeat(40));
  }
});
