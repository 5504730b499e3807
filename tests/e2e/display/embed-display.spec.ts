import type { Browser, Page } from '@playwright/test';
import type { CataloguePage } from '../../../contract/catalogue-pages.ts';
import { EMBED_QUOTE_CLASS } from '../../../contract/embed-names.ts';
import type { ReviewQueuePage } from '../../../contract/review-queue.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { embedTitle } from '../../../contract/threads-embed.ts';
import { topicPath, topicSlug } from '../../../contract/topics.ts';
import { expect, signedInPage, test } from '../fixtures.ts';
import { openPendingReview, refreshNow } from '../curation/helpers.ts';

// Issue 35, decision 070: with PUBLIC_POST_DISPLAY=embed (this project's server, simulated mode), an
// approved post found by search reaches the public only as Threads' embed: home, its thread page,
// its topic page and the feeds, read as HTML and in the browser, with the simulator's stand-in for
// Meta's script and without it. Its author, once they choose cards, sees their post as our card.
test.describe.configure({ timeout: 300_000 });

const STAND_IN = '**/simulated-threads/embed.js';
const FRAME = 'iframe[title="Post on Threads"]';

/** A distinctive piece of the post's own words: what must never be on our pages in embed mode. */
function wordsOf(thread: ReviewThread): string {
  const words = thread.content.replace(/\s+/g, ' ').trim();
  return words.slice(0, Math.min(40, words.length));
}

async function approveOne(admin: Page): Promise<ReviewThread> {
  const response = await admin.request.get('/api/threads/pending-review');
  expect(response.status()).toBe(200);
  const { threads } = (await response.json()) as ReviewQueuePage;
  // Found by search, with an author, a topic and words of its own long enough to look for.
  const thread = threads.find(
    (item) =>
      item.source !== 'manual_submission' &&
      item.handle.startsWith('@') &&
      item.topic_tag &&
      topicSlug(item.topic_tag) &&
      wordsOf(item).length >= 20,
  );
  if (!thread) throw new Error('no searched thread with a topic to approve');
  const approved = await admin.request.post('/api/threads/approve', {
    data: { thread_id: thread.id },
    headers: { Origin: new URL(admin.url()).origin },
  });
  expect(approved.status()).toBe(200);
  return thread;
}

/** The exported card of `id` once the site has published it (polled: publishing follows approval). */
async function publishedCard(page: Page, id: string, display: 'embed' | 'card'): Promise<ThreadCard> {
  let found: ThreadCard | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/data/pages/all/1.json');
        if (!response.ok()) return 'none';
        found = ((await response.json()) as CataloguePage).cards.find((card) => card.id === id);
        return found ? (found.display ?? 'card') : 'none';
      },
      { timeout: 120_000, intervals: [1_000] },
    )
    .toBe(display);
  if (!found) throw new Error('no card');
  return found;
}

/** Polls a public address until its HTML carries `needle` (the rebuilt pages follow the data). */
async function htmlWith(page: Page, route: string, needle: string): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        html = await (await page.request.get(route)).text();
        return html.includes(needle);
      },
      { timeout: 120_000, intervals: [1_000] },
    )
    .toBe(true);
  return html;
}

/** A visitor's page (JavaScript on or off), with or without Meta's script (the stand-in) reaching it. */
async function visitor(browser: Browser, baseURL: string, { js, script }: { js: boolean; script: boolean }) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: js });
  if (!script) await context.route(STAND_IN, (route) => route.abort());
  return { context, page: await context.newPage() };
}

test("an approved post found by search is shown only through Threads' embed, until its author chooses cards", async ({
  newPage,
  browser,
  baseURL,
  pageProblems,
}) => {
  pageProblems.allow(/status of 409/);
  const admin = await signedInPage(newPage, 'admin');
  await refreshNow((await openPendingReview(admin)).getByRole('region', { name: 'Curation' }));
  const thread = await approveOne(admin);
  const words = wordsOf(thread);
  const permalink = thread.permalink ?? '';
  const handle = thread.handle;
  const topic = topicPath(topicSlug(thread.topic_tag ?? '') ?? '');

  const card = await publishedCard(admin, thread.id, 'embed');
  expect(card).toMatchObject({ content: '', image: null, likes: null, replies: null, handle, permalink });

  // The HTML as served: the blockquote Meta's script looks for, and none of the post's words.
  const quote = `<blockquote class="${EMBED_QUOTE_CLASS}" data-text-post-permalink="${permalink}"`;
  for (const route of ['/', `/thread/${thread.id}`, topic]) {
    const html = await htmlWith(admin, route, quote);
    expect(html, route).not.toContain(words);
    expect(html, route).toContain('<meta name="threads-embed-script"');
  }
  for (const feed of ['/feed.xml', '/feed.json']) {
    const body = await htmlWith(admin, feed, permalink);
    expect(body, feed).toContain(embedTitle(permalink));
    expect(body, feed).not.toContain(words);
  }

  // Without JavaScript: the placeholder names the author and links the post on Threads.
  const off = await visitor(browser, baseURL ?? '', { js: false, script: true });
  try {
    await off.page.goto(`/thread/${thread.id}`);
    const placeholder = off.page.locator(`blockquote.${EMBED_QUOTE_CLASS}`);
    await expect(placeholder.getByRole('link', { name: /^View on Threads/ })).toHaveAttribute(
      'href',
      permalink,
    );
    await expect(placeholder).toContainText(handle);
    await expect(off.page.getByRole('button', { name: /^Show post/ })).toBeHidden();
    await expect(off.page.getByRole('main')).not.toContainText(words);
  } finally {
    await off.context.close();
  }

  // Meta's script blocked: the placeholder stays; 'Show post' tries and the post is never copied in.
  const blocked = await visitor(browser, baseURL ?? '', { js: true, script: false });
  try {
    await blocked.page.goto(`/thread/${thread.id}`);
    const show = blocked.page.getByRole('button', { name: /^Show post/ });
    await show.focus();
    await blocked.page.keyboard.press('Enter');
    await expect(blocked.page.locator(`blockquote.${EMBED_QUOTE_CLASS}`)).toBeVisible();
    await expect(blocked.page.locator(FRAME)).toHaveCount(0);
    await expect(blocked.page.getByRole('main')).not.toContainText(words);
  } finally {
    await blocked.context.close();
  }

  // With the stand-in: once the page is idle the post arrives in Threads' frame (it is on screen), on
  // the thread page and on home, and only there.
  const reader = await newPage();
  await reader.goto(`/thread/${thread.id}`);
  await expect(reader.frameLocator(FRAME).locator('body')).toContainText(words, { timeout: 30_000 });
  await expect(reader.getByRole('main')).not.toContainText(words);
  await reader.goto('/');
  const homeCard = reader.locator('article.thread-card', {
    has: reader.locator(`a[href="/thread/${thread.id}"]`),
  });
  await homeCard.scrollIntoViewIfNeeded();
  await expect(homeCard.frameLocator(FRAME).locator('body')).toContainText(words, { timeout: 30_000 });

  // The author chooses cards on 'Your posts', by keyboard; the focus stays on the box.
  const author = await signedInPage(newPage, handle.slice(1));
  await author.goto('/your-posts');
  const box = author.getByRole('checkbox', { name: 'Show my posts as cards' });
  await expect(box).not.toBeChecked();
  await box.focus();
  await author.keyboard.press('Space');
  await expect(
    author.getByRole('status').filter({ hasText: 'Done: your posts show as cards' }),
  ).toBeVisible();
  await expect(box).toBeChecked();
  await expect(box).toBeFocused();

  const shown = await publishedCard(author, thread.id, 'card');
  expect(shown.content.replace(/\s+/g, ' ')).toContain(words);
  await htmlWith(author, `/thread/${thread.id}`, 'class="thread-page__text"');
  await author.reload();
  await expect(author.getByRole('checkbox', { name: 'Show my posts as cards' })).toBeChecked();
});
