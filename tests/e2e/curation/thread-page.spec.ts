import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { ReviewQueuePage } from '../../../contract/review-queue.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { threadsProfileUrl } from '../../../contract/profile-rules.ts';
import { topicPath, topicSlug } from '../../../contract/topics.ts';
import { expect, signedInPage, test } from '../fixtures.ts';
import { openPendingReview, refreshNow } from './helpers.ts';

// A page per thread (issue 20, decision 046): an approved thread at /thread/{id}, read with
// JavaScript off and on, its preview tags in the head, no accessibility violation.
test.describe.configure({ timeout: 240_000 });

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

async function pendingThreads(admin: Page): Promise<ReviewThread[]> {
  const response = await admin.request.get('/api/threads/pending-review');
  expect(response.status()).toBe(200);
  return ((await response.json()) as ReviewQueuePage).threads;
}

async function approve(admin: Page, threadId: string): Promise<boolean> {
  const response = await admin.request.post('/api/threads/approve', {
    data: { thread_id: threadId },
    headers: { Origin: new URL(admin.url()).origin },
  });
  return response.status() === 200;
}

/** Approves two waiting threads of one topic; returns the newer one's, and the other's id. */
async function approvedPair(admin: Page): Promise<{ thread: ReviewThread; other: string }> {
  const byTopic = new Map<string, ReviewThread[]>();
  for (const thread of await pendingThreads(admin)) {
    const slug = thread.topic_tag ? topicSlug(thread.topic_tag) : null;
    if (slug && thread.handle.startsWith('@')) byTopic.set(slug, [...(byTopic.get(slug) ?? []), thread]);
  }
  for (const threads of byTopic.values()) {
    const approved = [];
    for (const thread of threads)
      if (approved.length < 2 && (await approve(admin, thread.id))) approved.push(thread);
    const [thread, other] = approved;
    if (thread && other) return { thread, other: other.id };
  }
  throw new Error('no two threads of one topic could be approved');
}

async function checkPage(page: Page, thread: ReviewThread, other: string): Promise<void> {
  const response = await page.goto(`/thread/${thread.id}`);
  expect(response?.status()).toBe(200);
  const main = page.getByRole('main');
  const username = thread.handle.slice(1);
  await expect(main.getByRole('heading', { level: 1 }).getByRole('link')).toHaveAttribute(
    'href',
    threadsProfileUrl(username),
  );
  const slug = topicSlug(thread.topic_tag ?? '') ?? '';
  await expect(main.getByRole('link', { name: `#${thread.topic_tag}` }).first()).toHaveAttribute(
    'href',
    topicPath(slug),
  );
  await expect(main.getByRole('link', { name: 'View on Threads' })).toHaveAttribute(
    'href',
    thread.permalink ?? '',
  );
  const related = main.getByRole('region', { name: /^More on/ }).locator(`a[href="/thread/${other}"]`);
  await expect(related).toHaveCount(1);
  const meta = (property: string) => page.locator(`head meta[property="${property}"]`);
  const origin = new URL(page.url()).origin;
  await expect(meta('og:url')).toHaveAttribute('content', `${origin}/thread/${thread.id}`);
  // Its own picture, drawn by the server from its words (decision 048), a PNG the crawlers can read.
  const picture = `/social/thread/${thread.id}.png`;
  await expect(meta('og:image')).toHaveAttribute('content', `${origin}${picture}`);
  const drawn = await page.request.get(picture);
  expect(drawn.status()).toBe(200);
  expect(drawn.headers()['content-type']).toBe('image/png');
  await expect(meta('og:title')).toHaveAttribute('content', /\S/);
  await expect(page.locator('head meta[name="twitter:card"]')).toHaveAttribute(
    'content',
    'summary_large_image',
  );
  // Keyboard: a related thread's link takes focus and opens its page with Enter.
  await related.focus();
  await expect(related).toBeFocused();
  await related.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/thread/${other}$`));
}

test('an approved thread has a page of its own, with JavaScript off and on', async ({
  newPage,
  browser,
  baseURL,
  pageProblems,
}) => {
  // Like every spec that presses Refresh now: refreshNow tries again while a scheduled run holds the
  // curation lock, and the browser logs that 409 (the one spec without this failed on it in CI).
  pageProblems.allow(/status of 409/);
  const admin = await signedInPage(newPage, 'admin');
  await refreshNow((await openPendingReview(admin)).getByRole('region', { name: 'Curation' }));
  const { thread, other } = await approvedPair(admin);

  const off = await browser.newContext({ javaScriptEnabled: false, baseURL: baseURL ?? '' });
  try {
    await checkPage(await off.newPage(), thread, other);
  } finally {
    await off.close();
  }
  await checkPage(await newPage(), thread, other);

  // axe over the page as served (bypassing the CSP only to load axe itself).
  const scan = await browser.newContext({ bypassCSP: true, baseURL: baseURL ?? '' });
  try {
    const page = await scan.newPage();
    await page.goto(`/thread/${thread.id}`);
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe;
      return (await axe.run()).violations.map((violation) => violation.id);
    });
    expect(violations).toEqual([]);
  } finally {
    await scan.close();
  }

  expect((await admin.request.get('/thread/00000000-0000-4000-8000-000000000000')).status()).toBe(404);

  // Its card, once published on its topic's page, leads there: the date for the keyboard, the
  // picture (if any) for the pointer only.
  const visitor = await newPage();
  const card = visitor.locator(`article.thread-card:has(a.thread-card__page[href="/thread/${thread.id}"])`);
  await expect
    .poll(
      async () => {
        await visitor.goto(topicPath(topicSlug(thread.topic_tag ?? '') ?? ''));
        return card.count();
      },
      { timeout: 60_000 },
    )
    .toBe(1);
  await expect(card.locator('a.thread-card__picture')).toHaveCount(thread.image ? 1 : 0);
  const link = card.getByRole('link', { name: /^Thread page, / });
  await link.focus();
  await link.press('Enter');
  await expect(visitor).toHaveURL(new RegExp(`/thread/${thread.id}$`));
});
