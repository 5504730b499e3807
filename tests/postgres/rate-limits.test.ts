import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openPostgres } from '../../server/db/client.ts';
import { RATE_LIMITS } from '../../server/plugins/rate-limits.ts';
import { api, signIn } from '../integration/auth/helpers.ts';
import { resetDatabase, testDatabase } from '../integration/helpers/database.ts';
import { startInstance } from './instances.ts';

// Three instances of the real app on one PostgreSQL at the real limits (multiplier 1), one client
// going from one to another as a round-robin balancer sends it: the limits hold across them,
// counted in the database (decision 066), where each instance's memory let 3 × 5 through.
const databaseUrl = process.env.DATABASE_URL ?? '';
const { max } = RATE_LIMITS.inviteRequest;
let instances: { app: FastifyInstance; base: string }[] = [];
let bases: string[] = [];
/** The first instance's log at warn level and above. */
const logLines: string[] = [];

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  const realLimits = { RATE_LIMIT_MULTIPLIER: '1', LOG_LEVEL: 'warn' };
  instances = await Promise.all(
    [1, 2, 3].map((n) =>
      startInstance(
        {
          database: openPostgres(databaseUrl),
          ...(n === 1 ? { logStream: { write: (line: string) => void logLines.push(line) } } : {}),
        },
        realLimits,
      ),
    ),
  );
  bases = instances.map((instance) => instance.base);
});

afterAll(async () => {
  await Promise.all(instances.map(({ app }) => app.close()));
});

const invite = (n: number, cookie: string) =>
  api(bases[n % bases.length] ?? '', '/api/user/request-invite', { method: 'POST', cookie });

test(`invite requests spread over three instances: ${max} pass, the next is 429 with Retry-After on every one`, async () => {
  const cookie = await signIn(bases[0] ?? '', 'roaming');
  const statuses = [];
  for (let n = 0; n < max; n++) statuses.push((await invite(n, cookie)).status);
  expect(statuses).toEqual(Array(max).fill(200));

  const limited = await invite(max, cookie);
  expect(limited.status).toBe(429);
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  for (let n = 0; n < bases.length; n++) expect((await invite(n, cookie)).status).toBe(429);
});

test(`a burst on the three instances at once lets exactly ${max} through`, async () => {
  const cookie = await signIn(bases[1] ?? '', 'bursting');
  const responses = await Promise.all(Array.from({ length: 3 * max }, (_, n) => invite(n, cookie)));
  const statuses = responses.map((response) => response.status).sort();
  expect(statuses).toEqual([...Array(max).fill(200), ...Array(2 * max).fill(429)]);
});

test('with its counters out of reach an instance lets requests through and logs it; then counts again', async () => {
  const { db } = await testDatabase();
  const cookie = await signIn(bases[0] ?? '', 'unreachable');
  for (let n = 0; n < max; n++) expect((await invite(0, cookie)).status).toBe(200);
  expect((await invite(0, cookie)).status).toBe(429);

  // Only the counters' statement fails; sessions and the route's own work still reach the database.
  await db.execute(sql`alter table rate_limit_counters rename to rate_limit_counters_away`);
  try {
    expect((await invite(0, cookie)).status).toBe(200);
  } finally {
    await db.execute(sql`alter table rate_limit_counters_away rename to rate_limit_counters`);
  }
  expect(logLines.some((line) => line.includes('rate limit not counted'))).toBe(true);
  // The stored window was kept: the client is still over its limit.
  expect((await invite(0, cookie)).status).toBe(429);
});
