import { request } from 'node:http';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SOCIAL_KINDS, type SocialKind } from '../../../contract/social-image.ts';
import { threads } from '../../../server/db/schema.ts';
import { api, approvedMember, saveProfile, startApp } from '../auth/helpers.ts';
import { insertThreads, threadRows } from '../helpers/approved-threads.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { encoded, hostileString, percentEncode } from './hostile-values.ts';

// Issue 34: the site's paths that carry a key of the visitor's choosing (a preview picture's kind
// and key, a thread page's id, a catalogue file's name, any page) never answer 500, over real HTTP:
// the early static path in front of Fastify sees them as a browser or crawler sends them.
// Seeded: a failure names its seed and counterexample (FUZZ_SEED=... reruns it).
const SEED = Number(process.env.FUZZ_SEED ?? 20261207);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

let app: FastifyInstance;
let port: number;
/** Keys that name something, per picture kind: generated keys are also made from them. */
const known: Record<SocialKind, string[]> = { thread: [], topic: [], profile: [], digest: ['2026-47'] };

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  const started = await startApp();
  app = started.app;
  port = Number(new URL(started.base).port);
  const member = await approvedMember(started.base, 'fuzz_member');
  await saveProfile(started.base, member, 'fuzz_member', 'A bio with words to draw.');
  known.profile.push('fuzz_member');
  await insertThreads(threadRows(3));
  const { db } = await testDatabase();
  known.thread.push(...(await db.select({ id: threads.id }).from(threads)).map((row) => row.id));
  const manifest = (await (await api(started.base, '/data/manifest.json')).json()) as {
    topics?: { slug: string }[];
  };
  known.topic.push(...(manifest.topics ?? []).slice(0, 3).map((topic) => topic.slug));
});
afterAll(() => app.close());

/** A key: one that names something, the same with a hostile string put in or around, or any string. */
const keyFrom = (names: readonly string[]) =>
  fc.oneof(
    names.length > 0 ? fc.constantFrom(...names) : hostileString,
    fc
      .tuple(names.length > 0 ? fc.constantFrom(...names) : fc.constant(''), hostileString, fc.nat())
      .map(([name, text, at]) => {
        const index = at % (name.length + 1);
        return name.slice(0, index) + text + name.slice(index);
      }),
    fc.constantFrom(...names).map((name) => name.toUpperCase()),
    hostileString,
  );

const socialPaths = () =>
  fc
    .constantFrom(...SOCIAL_KINDS)
    .chain((kind) =>
      fc.tuple(
        fc.oneof({ arbitrary: fc.constant(kind), weight: 4 }, { arbitrary: hostileString, weight: 1 }),
        encoded(keyFrom(known[kind])),
        fc.constantFrom('.png', '.png', '', '.PNG', '.png/x'),
      ),
    )
    .map(([kind, key, suffix]) => `/social/${percentEncode(kind)}/${key}${suffix}`);

const threadPages = () => encoded(keyFrom(known.thread)).map((id) => `/thread/${id}`);

const catalogueFiles = () =>
  fc
    .array(encoded(keyFrom(['manifest.json', 'threads-all.json', 'pages', 'search', '..', '.'])), {
      minLength: 1,
      maxLength: 3,
    })
    .map((parts) => `/data/${parts.join('/')}`);

const anyPage = () =>
  fc
    .array(encoded(keyFrom(['fuzz_member', 'topic', 'digest', 'profile', '_astro', 'index.html'])), {
      minLength: 1,
      maxLength: 3,
    })
    .map((parts) => `/${parts.join('/')}`);

/** A GET or HEAD of `path` exactly as written (fetch would normalize it); its status. */
function send(method: string, path: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, method, path, headers: { 'accept-encoding': acceptEncoding } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

// Thunks: the known keys are read once the app has them (beforeAll).
const requests = {
  'preview pictures (/social/{kind}/{key}.png)': socialPaths,
  'thread pages (/thread/{id})': threadPages,
  'catalogue files (/data/...)': catalogueFiles,
  'any page': anyPage,
};

test.for(Object.entries(requests))('no generated key answers 500: %s', async ([, paths]) => {
  const property = fc.asyncProperty(
    paths(),
    fc.constantFrom('GET', 'HEAD'),
    fc.constantFrom('br, gzip', 'gzip', 'identity', ''),
    async (generated, method, acceptEncoding) => {
      // Node's HTTP parser refuses a request line over 16 KiB before any of our code sees it.
      const path = generated.slice(0, 8_000);
      const status = await send(method, path, acceptEncoding);
      expect(status, `${method} ${path}`).not.toBe(500);
    },
  );
  await fc.assert(property, { seed: SEED, numRuns: RUNS });
});

test('the known keys name real pages and pictures: the generated ones start from something', async () => {
  for (const kind of ['thread', 'topic', 'profile'] as const) {
    const [key] = known[kind];
    expect(await send('HEAD', `/social/${kind}/${percentEncode(key ?? '')}.png`, ''), kind).toBe(200);
  }
  expect(await send('HEAD', `/thread/${known.thread[0] ?? ''}`, '')).toBe(200);
});
