import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from 'vitest';
import { CONTENT_CHANGES_CHANNEL } from '../../../server/plugins/content-changes.ts';
import { HINT, IN_PROCESS, runAdmin as run } from '../helpers/admin-cli.ts';

// `npm run admin -- publish` on PostgreSQL tells every instance, as an approval does; on the embedded
// database (the PGlite pass) it needs the running server (admin-cli-backup.test.ts asks one).
test(
  'publish sends the content-change notice every instance hears, or says no server runs',
  { tags: ['engine'], ...IN_PROCESS },
  async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-publish-'));
    expect(await run(dataDir, ['publish', 'now'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(HINT),
    });
    const databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      const idle = await run(dataDir, ['publish']);
      expect(idle).toMatchObject({ code: 1, stdout: '' });
      expect(idle.stderr).toMatch(/^No server runs on /);
      return;
    }
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      await listener.query(`LISTEN ${CONTENT_CHANGES_CHANNEL}`);
      expect(await run(dataDir, ['publish', '--json'], { DATABASE_URL: databaseUrl })).toEqual({
        code: 0,
        stdout: JSON.stringify({ notified: true }, null, 2),
        stderr: '',
      });
      await expect
        .poll(() => heard.map((payload) => JSON.parse(payload) as unknown))
        .toEqual([{ change: 'threads', origin: 'admin-cli' }]);
    } finally {
      await listener.end();
    }
  },
);
