import type { FastifyInstance } from 'fastify';
import { Window } from 'happy-dom';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { escapeHtml } from '../../../server/http/html-escape.ts';
import { ownPostsFor, SEED_POSTS } from '../../../server/simulator/seed-posts.ts';
import { TEST_SITE } from '../../site-under-test.ts';
import { buildTestApp } from '../helpers/app.ts';

// The simulator's stand-in for Threads' embed (decision 070): embed.js turns the pages' blockquotes
// into iframes of its post pages, which any site may frame.
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

const live = (type: string) =>
  SEED_POSTS.find((post) => post.disappearsAfterHours === null && post.mediaType === type);
const text = live('TEXT_POST');
const image = live('IMAGE');
const doomed = SEED_POSTS.find((post) => post.disappearsAfterHours !== null);
if (!text || !image || !doomed)
  throw new Error('the seed lacks a live text post, image post or deleted post');

const blockquote = (permalink: string) =>
  `<blockquote class="text-post-media" data-text-post-permalink="${permalink}" data-text-post-version="0">` +
  '<p>Placeholder</p></blockquote>';

/** A page of another origin (the site's) that loads the stand-in as it would Meta's script. */
async function runScript(window: Window): Promise<void> {
  const script = window.document.createElement('script');
  // Async: happy-dom fetches a blocking script synchronously, which this process could never answer.
  script.async = true;
  script.src = `${base}/embed.js`;
  window.document.body.appendChild(script);
  await window.happyDOM.waitUntilComplete();
}

test('embed.js is a script any origin may load', async () => {
  const response = await fetch(`${base}/embed.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
});

test('embed.js turns each blockquote into an iframe of its post, and a second run only the new ones', async () => {
  const window = new Window({
    url: `${TEST_SITE.publicUrl}/thread/x`,
    settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
  });
  try {
    const byUser = `https://www.threads.com/@${text.username}/post/${text.shortcode}`;
    const short = `https://www.threads.net/t/${image.shortcode}`;
    window.document.body.innerHTML =
      blockquote(byUser) + blockquote(short) + blockquote('https://example.com/not-a-post');
    await runScript(window);
    const frames = () => [...window.document.querySelectorAll('iframe')];
    expect(frames().map((frame) => frame.getAttribute('src'))).toEqual([
      `${base}/embed/post/${text.shortcode}?username=${text.username}`,
      `${base}/embed/post/${image.shortcode}`,
    ]);
    for (const frame of frames()) {
      expect(frame.getAttribute('title')).toBe('Post on Threads');
      expect(frame.getAttribute('width')).toBe('540');
    }
    // What is not a post's address stays as it is, placeholder and all.
    expect(window.document.querySelectorAll('blockquote.text-post-media')).toHaveLength(1);
    expect(window.document.body.textContent).toContain('Placeholder');

    frames()[0]?.setAttribute('data-first-run', '');
    window.document.body.insertAdjacentHTML('beforeend', blockquote(byUser));
    await runScript(window);
    expect(frames()).toHaveLength(3);
    expect(frames()[0]?.hasAttribute('data-first-run')).toBe(true);
    expect(frames()[2]?.getAttribute('src')).toBe(frames()[0]?.getAttribute('src'));
  } finally {
    await window.happyDOM.close();
  }
});

test("a live post's page shows its author, text and picture, framable by any site and running no script", async () => {
  const response = await fetch(`${base}/embed/post/${image.shortcode}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain('frame-ancestors *');
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('script-src');
  const html = await response.text();
  expect(html).toContain(`@${escapeHtml(image.username)}`);
  expect(html).toContain(escapeHtml(image.text));
  expect(html).toMatch(/<img src="[^"]*\/simulated-threads\/media\/design-\d\d\.webp\?oe=/);
  expect(html).not.toContain('<script');

  const plain = await (await fetch(`${base}/embed/post/${text.shortcode}?username=${text.username}`)).text();
  expect(plain).toContain(escapeHtml(text.text));
  expect(plain).not.toContain('<img');
});

test("an account's own post needs the name its permalink gives, as oEmbed does", async () => {
  const own = ownPostsFor('embed.owner')[0];
  if (!own) throw new Error('embed.owner has no posts');
  expect((await fetch(`${base}/embed/post/${own.shortcode}`)).status).toBe(404);
  const response = await fetch(`${base}/embed/post/${own.shortcode}?username=embed.owner`);
  expect(response.status).toBe(200);
  expect(await response.text()).toContain(escapeHtml(own.text));
});

test('an unknown, malformed or deleted post is unavailable, and still framable', async () => {
  const deleted = `${base}/embed/post/${doomed.shortcode}`;
  expect((await fetch(deleted)).status).toBe(200);
  now += ((doomed.disappearsAfterHours ?? 0) + 1) * HOUR;
  for (const url of [deleted, `${base}/embed/post/NoSuchCode1`, `${base}/embed/post/a%20b`]) {
    const response = await fetch(url);
    expect(response.status, url).toBe(404);
    expect(response.headers.get('content-security-policy'), url).toContain('frame-ancestors *');
    const html = await response.text();
    expect(html, url).toContain('This post is unavailable.');
    expect(html, url).not.toContain(escapeHtml(doomed.text));
  }
});
