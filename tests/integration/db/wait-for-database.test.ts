import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { openPglite, openPostgres } from '../../../server/db/client.ts';
import {
  DatabaseUnreachableError,
  describeDatabaseUrl,
  waitForDatabase,
} from '../../../server/db/wait-for-database.ts';

/** A loopback port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('an unreachable PostgreSQL: one line per try with its wait, then one line to exit on, no password', async () => {
  const url = `postgres://curator:s3cret-pass@127.0.0.1:${await closedPort()}/curated`;
  const database = openPostgres(url);
  const lines: string[] = [];
  const waits: number[] = [];
  try {
    const waiting = waitForDatabase(database, describeDatabaseUrl(url), {
      delaysMs: [1000, 2000],
      log: (line) => lines.push(line),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await expect(waiting).rejects.toThrow(DatabaseUnreachableError);
    const error = (await waiting.catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /^PostgreSQL at 127\.0\.0\.1:\d+\/curated did not answer after 3 tries \(connect ECONNREFUSED/,
    );
    expect(error.message).not.toContain('\n');
    expect(waits).toEqual([1000, 2000]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /is not answering \(connect ECONNREFUSED.*\); trying again in 1 s \(try 1 of 3\)\.$/,
    );
    expect(lines[1]).toContain('trying again in 2 s (try 2 of 3).');
    for (const text of [...lines, error.message]) expect(text).not.toContain('s3cret');
  } finally {
    await database.close();
  }
});

test('a database that answers is not waited for', async () => {
  const database = await openPglite('memory://');
  const lines: string[] = [];
  try {
    await waitForDatabase(database, 'memory', { log: (line) => lines.push(line) });
    expect(lines).toEqual([]);
  } finally {
    await database.close();
  }
});

test('describeDatabaseUrl keeps host, port and database, never the credentials', () => {
  expect(describeDatabaseUrl('postgres://a:b@db.internal/curated')).toBe('db.internal:5432/curated');
  expect(describeDatabaseUrl('postgresql://db:6432')).toBe('db:6432');
  expect(describeDatabaseUrl('not a url')).toBe('DATABASE_URL (not a valid URL)');
});
