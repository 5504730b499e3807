import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { OEMBED_CALLS_PER_HOUR } from '../../../server/simulator/oembed-routes.ts';
import { ownPostsFor, SEED_POSTS } from '../../../server/simulator/seed-posts.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { authorizationCode } from '../auth/helpers.ts';
import { buildTestApp } from '../helpers/app.ts';

// The simulated provider's oEmbed endpoint (threads-api.md section 5): tokenless, 1,000 calls an
// hour per caller, a rich embed for a live public post and a Graph error for anything else.
const HOUR = 3_600_000;
let now = Date.parse('2026-11-21T10:00:00Z');
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = await buildTestApp({ PUBLIC_URL: TEST_SITE.publicUrl }, { simulatedClock: () => now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/simulated-threads`;
});
afterAll(() => app.close());

const live = SEED_POSTS.find((post) => post.disappearsAfterHours === null);
const doomed = SEED_POSTS.find((post) => post.disappearsAfterHours !== null);
if (!live || !doomed) throw new Error('the seed has no live or no deleted post');

async function oembed(url: string, extra: Record<string, string> = {}) {
  const response = await fetch(`${base}/v1.0/oembed?${new URLSearchParams({ url, ...extra })}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('section 5: a live public post gets the rich embed, without any token', async () => {
  const permalink = `https://www.threads.com/@${live.username}/post/${live.shortcode}`;
  const { status, body } = await oembed(permalink);
  expect(status).toBe(200);
  expect(body).toMatchObject({
    type: 'rich',
    version: '1.0',
    provider_name: 'Threads',
    provider_url: 'https://www.threads.com/',
    width: 658,
  });
  expect(body.html).toContain(`<blockquote class="text-post-media" data-text-post-permalink="${permalink}"`);
  expect(body.html).toContain('<script async src="https://www.threads.com/embed.js"></script>');
  // No post content beyond the embed (Meta dropped author and thumbnail fields).
  expect(Object.keys(body).sort()).toEqual(
    ['html', 'provider_name', 'provider_url', 'type', 'version', 'width'].sort(),
  );
});

test.each([
  ['threads.net', (code: string, user: string) => `https://www.threads.net/@${user}/post/${code}`],
  ['no www, trailing slash', (code: string, user: string) => `https://threads.com/@${user}/post/${code}/`],
  ['/t/ short form', (code: string) => `https://www.threads.com/t/${code}`],
  ['a share query', (code: string) => `https://www.threads.net/t/${code}?xmt=AQF0fixture`],
])('section 5: the permalink forms are all understood (%s)', async (_form, link) => {
  expect((await oembed(link(live.shortcode, live.username))).status).toBe(200);
});

test('section 5: maxwidth 320..658 sets the width; outside it is an invalid parameter', async () => {
  const permalink = `https://www.threads.com/t/${live.shortcode}`;
  expect((await oembed(permalink, { maxwidth: '400' })).body.width).toBe(400);
  for (const maxwidth of ['319', '659', 'wide']) {
    const { status, body } = await oembed(permalink, { maxwidth });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 100, type: 'THApiException' } });
  }
});

test("section 5: a link under another author's name is the same post: the embed names its true author", async () => {
  // As on Threads, the shortcode names the post (issue 34): the handle in the link changes nothing.
  const { status, body } = await oembed(
    `https://www.threads.com/@not.${live.username}/post/${live.shortcode}`,
  );
  expect(status).toBe(200);
  expect(body.html).toContain(
    `data-text-post-permalink="https://www.threads.com/@${live.username}/post/${live.shortcode}"`,
  );
});

test('section 5: an unknown post or a foreign host is a Graph error (code 100)', async () => {
  for (const url of [
    'https://www.threads.com/t/NoSuchCode1',
    `https://www.instagram.com/p/${live.shortcode}`,
    'not a url',
  ]) {
    const { status, body } = await oembed(url);
    expect(status, url).toBe(400);
    expect(body, url).toMatchObject({ error: { code: 100, fbtrace_id: expect.any(String) } });
  }
});

test("section 5: a member's own post embeds by its /@user/ permalink, and by /t/ once the account is known", async () => {
  const own = ownPostsFor('alice')[0];
  if (!own) throw new Error('alice has no posts');
  expect((await oembed(`https://www.threads.com/@alice/post/${own.shortcode}`)).status).toBe(200);
  const stranger = ownPostsFor('never.signed.in')[0];
  expect((await oembed(`https://www.threads.com/t/${stranger?.shortcode ?? ''}`)).status).toBe(400);
  // The account authorizes the app once: the simulated Threads knows it from then on.
  await authorizationCode(base.replace('/simulated-threads', ''), 'never.signed.in');
  expect((await oembed(`https://www.threads.com/t/${stranger?.shortcode ?? ''}`)).status).toBe(200);
});

test('section 5: a deleted post is refused once deleted', async () => {
  const permalink = `https://www.threads.com/@${doomed.username}/post/${doomed.shortcode}`;
  expect((await oembed(permalink)).status).toBe(200);
  now += ((doomed.disappearsAfterHours ?? 0) + 1) * HOUR;
  expect((await oembed(permalink)).body).toMatchObject({ error: { code: 100 } });
});

test('sections 5 and 7: 1,000 calls an hour per caller, then throttling (code 4) until the hour rolls on', async () => {
  now += 2 * HOUR;
  const url = `${base}/v1.0/oembed?url=${encodeURIComponent(`https://www.threads.com/t/${live.shortcode}`)}`;
  const statuses: number[] = [];
  for (let sent = 0; sent < OEMBED_CALLS_PER_HOUR; sent += 50) {
    statuses.push(...(await Promise.all(Array.from({ length: 50 }, () => fetch(url).then((r) => r.status)))));
  }
  expect(statuses.filter((status) => status === 200)).toHaveLength(OEMBED_CALLS_PER_HOUR);
  const refused = await fetch(url);
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ error: { code: 4 } });
  now += HOUR;
  expect((await fetch(url)).status).toBe(200);
});
