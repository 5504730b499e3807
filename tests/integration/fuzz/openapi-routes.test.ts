import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { threads } from '../../../server/db/schema.ts';
import { api, approvedMember, ORIGIN, signIn, startApp } from '../auth/helpers.ts';
import { insertThreads, threadRows } from '../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { encoded, hostileString, type Examples } from './hostile-values.ts';
import { operationsOf, requestsFor, takesInput, type Operation } from './openapi-requests.ts';

// Issue 34: every route of the OpenAPI document the app serves, fed generated path parameters,
// query parameters and body fields, never answers 500: to a visitor, to a signed-in member, and
// (its own routes) to an admin. The routes come from the document, so a new route is fuzzed too.
// Seeded and bounded: a failure names its seed and counterexample; FUZZ_SEED and FUZZ_RUNS rerun
// or deepen it, FUZZ_STATUSES=1 prints what each route answered (how far the requests got).
const SEED = Number(process.env.FUZZ_SEED ?? 20261207);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/**
 * Left out of the member's pass: it ends the very session the member's requests carry, so every
 * later one would be a visitor's (the visitor's pass covers it). Deleting the account
 * (`POST /api/auth/data-deletion`) stays in: it needs a request signed with Meta's app secret,
 * which no generated value has.
 */
const ENDS_THE_SESSION = new Set(['POST /api/auth/logout']);

let app: FastifyInstance;
let operations: Operation[];
let member: string;
let admin: string;
/** Approved threads: ids that name something, so gems, decisions and undo reach their writes. */
let threadIds: string[] = [];

const threadId = fc.nat().map((index) => threadIds[index % threadIds.length] ?? '');

/** Valid values the schemas cannot describe: from them, generated requests reach the handlers. */
const EXAMPLES: Examples = {
  thread_url: fc
    .tuple(fc.stringMatching(/^[a-z0-9._]{1,30}$/), fc.stringMatching(/^[A-Za-z0-9_-]{5,40}$/))
    .map(([user, code]) => `https://www.threads.com/@${user}/post/${code}`),
  display_username: fc.stringMatching(/^[a-z][a-z0-9_]{2,19}$/),
  email: fc.emailAddress(),
  thread_id: threadId,
  thread_ids: fc.array(threadId, { minLength: 1, maxLength: 3 }),
  username: fc.constant('fuzz_member'),
};

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  // Mail "set up" (nothing listens there, and jobs are off): the mail routes go past their 503.
  const started = await startApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
  app = started.app;
  member = await approvedMember(started.base, 'fuzz_member');
  admin = await signIn(started.base, 'admin');
  await insertThreads(threadRows(3));
  const { db } = await testDatabase();
  threadIds = (await db.select({ id: threads.id }).from(threads)).map((row) => row.id);
  operations = operationsOf((await (await api(started.base, '/api/openapi.json')).json()) as never);
});
afterAll(() => app.close());

/**
 * Fuzzes the chosen operations with this cookie, or generated ones ('' for none); what failed, with
 * seed and counterexample. A route with nothing to generate is asked once, unless the cookie varies.
 */
async function fuzz(
  cookie: string | fc.Arbitrary<string>,
  chosen: (operation: Operation) => boolean,
): Promise<string[]> {
  const cookies = typeof cookie === 'string' ? fc.constant(cookie) : cookie;
  const failures: string[] = [];
  const statuses: Record<string, Record<number, number>> = {};
  for (const operation of operations.filter(chosen)) {
    const name = `${operation.method} ${operation.path}`;
    const answered: Record<number, number> = (statuses[name] = {});
    const property = fc.asyncProperty(
      requestsFor(operation, EXAMPLES),
      cookies,
      async ({ url, body }, sent) => {
        const response = await app.inject({
          method: operation.method as 'GET',
          url,
          headers: {
            origin: ORIGIN,
            ...(sent ? { cookie: sent } : {}),
            ...(body ? { 'content-type': body.contentType } : {}),
          },
          ...(body ? { payload: body.payload } : {}),
        });
        answered[response.statusCode] = (answered[response.statusCode] ?? 0) + 1;
        if (response.statusCode === 500) throw new Error(`500: ${response.body}`);
      },
    );
    const numRuns = takesInput(operation) || typeof cookie !== 'string' ? RUNS : 1;
    const details = await fc.check(property, { seed: SEED, numRuns });
    if (details.failed) failures.push(`${name}: ${fc.defaultReportMessage(details) ?? ''}`);
  }
  if (process.env.FUZZ_STATUSES) console.log(JSON.stringify(statuses, null, 1));
  return failures;
}

test('the routes come from the OpenAPI document: public, user, member and admin ones', () => {
  const names = operations.map((operation) => `${operation.method} ${operation.path}`);
  expect(names).toContain('PUT /api/user/gems/{thread_id}');
  expect(names).toContain('GET /api/user/profile/{username}');
  expect(names).toContain('POST /api/threads/decide-many');
  expect(new Set(operations.map((operation) => operation.access))).toEqual(
    new Set(['public', 'user', 'member', 'admin']),
  );
});

test('no generated request answers 500 to a visitor', async () => {
  // Without a cookie, or with a forged session cookie (its value is hashed before any lookup).
  const visitor = fc.oneof(
    fc.constant(''),
    encoded(hostileString).map((value) => `ct_session=${value}`),
  );
  expect(await fuzz(visitor, () => true)).toEqual([]);
});

test('no generated request answers 500 to a signed-in member, whose session lasts throughout', async () => {
  expect(
    await fuzz(member, (operation) => !ENDS_THE_SESSION.has(`${operation.method} ${operation.path}`)),
  ).toEqual([]);
  // Still signed in: every request above was a member's.
  const verify = await app.inject({ url: '/api/auth/verify', headers: { cookie: member } });
  expect(verify.statusCode).toBe(200);
});

test("no generated request to an admin's route answers 500 to an admin", async () => {
  // An admin's other routes are a member's: the member's pass covers them.
  expect(await fuzz(admin, (operation) => operation.access === 'admin')).toEqual([]);
});
