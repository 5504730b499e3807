import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { PublicProfile } from '../../../contract/profile.ts';
import { threads } from '../../../server/db/schema.ts';
import { api, approvedMember, signIn, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { startHookReceiver } from '../helpers/hook-receiver.ts';

// A server that publishes its own site (real Astro builds) and calls a deploy hook, with the default
// MEMBER_PUBLISH_INTERVAL_MINUTES (5): a member toggling gems does not rebuild and deploy at every
// toggle, an approval still publishes at once, and the last toggle is never lost.

const MEMBER = 'gem_toggler';
let work: string;
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;
let app: FastifyInstance | undefined;

let serial = 0;
/** A stored thread, as a curation run leaves it. */
async function storedThread(status: 'pending' | 'approved'): Promise<string> {
  const { db } = await testDatabase();
  serial++;
  const [row] = await db
    .insert(threads)
    .values({
      shortcode: `CAP${serial}x`,
      source: 'public_search',
      status,
      username: `capauthor${serial}`,
      text: `Capped thread number ${serial}`,
      permalink: `https://www.threads.com/@capauthor${serial}/post/CAP${serial}x`,
      postedAt: new Date(Date.now() - serial * 60_000),
    })
    .returning({ id: threads.id });
  if (!row) throw new Error('no thread');
  return row.id;
}

/** Resolves once `condition` holds, checked every 50 ms for at most `seconds` (never a timing assertion). */
async function until(condition: () => Promise<boolean> | boolean, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  work = await mkdtemp(path.join(tmpdir(), 'ct-member-cap-'));
  receiver = await startHookReceiver();
});

afterAll(async () => {
  await app?.close();
  await receiver.close();
  await rm(work, { recursive: true, force: true });
});

test('ten gem toggles within the interval make one or two publishes and deploys; an approval publishes at once and carries the last state', async () => {
  // The member, approved by a server that does not publish (no builds for the setup).
  const setup = await startApp();
  await approvedMember(setup.base, MEMBER);
  await setup.app.close();
  const [first, second] = [await storedThread('approved'), await storedThread('approved')];
  const pending = await storedThread('pending');

  const logLines: string[] = [];
  const started = await startApp(
    {
      SITE_DIR: path.join(work, 'site'),
      DATA_DIR: path.join(work, 'data'),
      DEPLOY_HOOK_URL: `${receiver.origin}/build_hooks/cap`,
      LOG_LEVEL: 'info',
    },
    {
      publishSite: true,
      logStream: { write: (line) => logLines.push(line) },
      deploy: { delayMs: 0, wait: async () => {} },
    },
  );
  app = started.app;
  const { base } = started;
  // A build at start, then renders of the data's pages (decision 043): each one a publish of the site.
  const builds = () =>
    logLines.filter(
      (line) => line.includes('Building the site') || line.includes("Rendering the site's pages"),
    ).length;
  const exportedGems = async () => {
    const file = path.join(work, 'data/site-data/profiles.json');
    const profiles = JSON.parse(await readFile(file, 'utf8')) as PublicProfile[];
    return profiles.find((profile) => profile.username === MEMBER)?.gems.toSorted() ?? null;
  };
  // The first publish at start builds the site (none yet) and delivers it once.
  await app.publisher.settled();
  await app.publisher.deploy?.settled();
  expect(receiver.calls).toHaveLength(1);
  expect(builds()).toBe(1);
  expect(await exportedGems()).toEqual([]);

  // Ten toggles over two threads; no state along the way is the starting one (no gems), so each
  // publish of them changes the export and delivers.
  const cookie = await signIn(base, MEMBER);
  const laterToggles: ['PUT' | 'DELETE', string][] = [
    ['PUT', second],
    ['DELETE', first],
    ['PUT', first],
    ['DELETE', second],
    ['PUT', second],
    ['DELETE', first],
    ['PUT', first],
    ['DELETE', second],
    ['PUT', second],
  ];
  const served = () => logLines.filter((line) => line.includes('The rebuilt site is being served')).length;
  // The first build is served before this point: on PGlite in the background (decision 038: it says
  // so in this line), on PostgreSQL as the first recorded version (decision 036: it does not).
  const servedAtStart = served();
  const toggle = async ([method, id]: ['PUT' | 'DELETE', string]) => {
    expect((await api(base, `/api/user/gems/${id}`, { method, cookie })).status).toBe(200);
  };
  // The first toggle of a quiet period publishes promptly (the build, its swap, its delivery)...
  await toggle(['PUT', first]);
  await until(() => served() >= servedAtStart + 1 && receiver.calls.length >= 2);
  // ...and the nine after it, made once that publish is done, wait for the interval (five minutes,
  // far longer than this test): without the cap the next one would start a build at once.
  for (const next of laterToggles) await toggle(next);
  expect(await exportedGems()).toEqual([first]);

  // An approval is not held back: it publishes now, and that publish exports the waiting gems.
  const admin = await signIn(base, 'admin');
  const approval = await api(base, '/api/threads/approve', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: pending },
  });
  expect(approval.status).toBe(200);
  // settled() waits for every waiting publish: it returns because the approval's carried the gems.
  await app.publisher.settled();
  await app.publisher.deploy?.settled();
  expect(await exportedGems()).toEqual([first, second].toSorted());
  // Ten toggles: two publishes and two deliveries (the first toggle's, and the approval's that
  // carried the other nine), after the one at start.
  expect(receiver.calls).toHaveLength(3);
  expect(builds()).toBe(3);
  expect(served()).toBe(servedAtStart + 2);
  const page = await fetch(`${base}/${MEMBER}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Capped thread number 2');
});
