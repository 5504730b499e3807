import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openPglite } from '../../../server/db/client.ts';
import { createUsersRepository } from '../../../server/repositories/users.ts';

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/admin.ts');

async function run(dataDir: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output: output.trim() };
}

test('npm run admin grants and revokes the role of a user who signed in; explains every refusal', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-admin-'));
  const database = await openPglite(dataDir);
  await database.migrate();
  await createUsersRepository(database.db).upsertOnSignIn('17841400000000001', 'Maren');
  await database.close();

  expect(await run(dataDir, 'grant', '@maren')).toEqual({ code: 0, output: '@maren is now an admin.' });
  const check = await openPglite(dataDir);
  expect((await createUsersRepository(check.db).findByThreadsUserId('17841400000000001'))?.isAdmin).toBe(
    true,
  );
  await check.close();

  expect(await run(dataDir, 'revoke', 'maren')).toEqual({ code: 0, output: '@maren is no longer an admin.' });
  expect(await run(dataDir, 'grant', 'nobody')).toEqual({
    code: 1,
    output: 'No user @nobody: they must sign in once before they can be made an admin.',
  });
  expect(await run(dataDir, 'promote', 'maren')).toEqual({
    code: 2,
    output: 'usage: npm run admin -- grant|revoke <threads-username>',
  });
});
