import { TEXTS } from '../../../contract/texts.ts';
import { topicPath, topicSlug } from '../../../contract/topics.ts';
import { countLabel } from '../../../src/lib/format.ts';
import { expect, test, waitForHydration } from '../fixtures.ts';
import { NEEDLE, NEEDLE_WORD, servedPage, threadCards } from './helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A stand-in for threads.com: nothing leaves the machine. */
const THREADS_STUB = '<!doctype html><title>Threads stub</title><h1>Threads stub</h1>';

test('a card says when it was posted: a date in the HTML, how long ago once the island runs', async ({
  page,
  browser,
}) => {
  const first = (await servedPage(page.request, 'all', 1)).cards[0];
  if (!first?.timestamp) throw new Error('the first card has no time');

  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto('/');
  const builtTime = plain.locator('article.thread-card').first().locator('time');
  await expect(builtTime).toHaveAttribute('datetime', first.timestamp);
  // The build cannot know when it is read: a calendar date, in UTC.
  await expect(builtTime).toHaveText(
    new Intl.DateTimeFormat('en', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(first.timestamp)),
  );
  await context.close();

  // The visitor's clock, 3 hours and 5 minutes after the post.
  await page.clock.setFixedTime(Date.parse(first.timestamp) + 3 * HOUR + 5 * MINUTE);
  await page.goto('/');
  await waitForHydration(page);
  const time = threadCards(page).first().locator('time');
  await expect(time).toHaveAttribute('datetime', first.timestamp);
  await expect(time).toHaveText('3 hours ago');

  await page.clock.setFixedTime(Date.parse(first.timestamp) + 30 * HOUR);
  await page.reload();
  await waitForHydration(page);
  await expect(threadCards(page).first().locator('time')).toHaveText('yesterday');
});

test('the card found on page 40 links to its post on Threads, says when it was posted and links its topic', async ({
  page,
}) => {
  const opened: string[] = [];
  await page.route('https://www.threads.com/**', (route) => {
    opened.push(route.request().url());
    return route.fulfill({ contentType: 'text/html', body: THREADS_STUB });
  });
  // The visitor reads it 2 hours after it was posted.
  await page.clock.setFixedTime(Date.parse(NEEDLE.timestamp) + 2 * HOUR + MINUTE);
  await page.goto('/');
  await waitForHydration(page);
  await page.getByRole('searchbox', { name: 'Search threads' }).fill(NEEDLE_WORD);

  const card = threadCards(page).filter({ hasText: NEEDLE.content });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('heading')).toHaveText(NEEDLE.author);
  await expect(card).toContainText(NEEDLE.handle);
  const time = card.locator('time');
  await expect(time).toHaveAttribute('datetime', NEEDLE.timestamp);
  await expect(time).toHaveText('2 hours ago');
  if (NEEDLE.likes !== null) await expect(card).toContainText(countLabel(NEEDLE.likes, 'like', 'likes'));
  if (NEEDLE.replies !== null)
    await expect(card).toContainText(countLabel(NEEDLE.replies, 'reply', 'replies'));

  // Its topic tag leads to the topic's page, and Back to the search.
  const slug = topicSlug(NEEDLE.topic_tag);
  if (!slug) throw new Error('the needle topic has no page');
  const topicLink = card.getByRole('link', { name: `#${NEEDLE.topic_tag}`, exact: true });
  await expect(topicLink).toHaveAttribute('href', topicPath(slug));
  await topicLink.click();
  await expect(page).toHaveURL(topicPath(slug));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`#${NEEDLE.topic_tag}`);
  await page.goBack();
  await expect(page).toHaveURL(`/?q=${NEEDLE_WORD}`);

  // 'View on Threads' opens the post itself.
  const view = threadCards(page)
    .filter({ hasText: NEEDLE.content })
    .getByRole('link', { name: TEXTS.viewOnThreads });
  await expect(view).toHaveAttribute('href', NEEDLE.permalink);
  await view.click();
  await expect(page).toHaveURL(NEEDLE.permalink);
  await expect(page.getByRole('heading', { name: 'Threads stub' })).toBeVisible();
  expect(opened).toEqual([NEEDLE.permalink]);
});
