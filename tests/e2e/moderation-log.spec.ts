import {
  MODERATION_TEXTS,
  type ModerationLogEntry,
  type ModerationLogPage,
} from '../../contract/moderation-log.ts';
import { TEXTS } from '../../contract/texts.ts';
import { expect, test } from './fixtures.ts';

// The site's server decides no thread: these tests answer /api/moderation themselves, to walk the
// island's states (the curation project's moderation spec reads the real log).

function entry(
  n: number,
  decision: ModerationLogEntry['decision'],
  reason: string | null,
): ModerationLogEntry {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    permalink: `https://www.threads.com/@author${n}/post/Mod${n}`,
    handle: n === 3 ? null : `@author${n}`,
    excerpt: n === 3 ? null : `Excerpt of post ${n}`,
    topic_tag: n === 1 ? 'Typography' : null,
    decision,
    decided_at: `2026-11-2${n}T10:00:00.000Z`,
    reason,
  };
}

test('/moderation: entries in words with their time, Load more to the end, a failed page retried in place', async ({
  page,
  pageProblems,
}) => {
  pageProblems.allow(/status of 500/);
  const first: ModerationLogPage = {
    entries: [entry(1, 'rejected', 'Promotional or spam'), entry(2, 'approved', null)],
    next_cursor: 'page-two',
  };
  const second: ModerationLogPage = { entries: [entry(3, 'rejected', null)], next_cursor: null };
  let failNext = true;
  const cursors: (string | null)[] = [];
  await page.route('**/api/moderation*', async (route) => {
    const cursor = new URL(route.request().url()).searchParams.get('cursor');
    cursors.push(cursor);
    if (cursor === 'page-two' && failNext) {
      failNext = false;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Try later."}' });
      return;
    }
    await route.fulfill({ contentType: 'application/json', body: JSON.stringify(cursor ? second : first) });
  });

  await page.goto('/moderation');
  const items = page.locator('ol.moderation-log > li');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText(MODERATION_TEXTS.rejected);
  await expect(items.nth(0)).toContainText(`${MODERATION_TEXTS.reason} Promotional or spam`);
  await expect(items.nth(0)).toContainText('#Typography');
  await expect(items.nth(0).getByRole('link', { name: 'Post by @author1' })).toHaveAttribute(
    'href',
    'https://www.threads.com/@author1/post/Mod1',
  );
  await expect(items.nth(0).locator('time')).toHaveAttribute('datetime', '2026-11-21T10:00:00.000Z');
  await expect(items.nth(1)).toContainText(MODERATION_TEXTS.approved);
  await expect(items.nth(1)).not.toContainText(MODERATION_TEXTS.reason);
  await expect(page.getByRole('status')).toHaveText('Showing 2 decisions.');

  // The next page fails: the entries stay, the error says why, and Try Again loads it.
  await page.getByRole('button', { name: MODERATION_TEXTS.loadMore }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Try later.');
  await expect(items).toHaveCount(2);
  await alert.getByRole('button', { name: TEXTS.tryAgain }).click();
  await expect(items).toHaveCount(3);
  await expect(items.nth(2)).toContainText(`${MODERATION_TEXTS.reason} ${MODERATION_TEXTS.noReason}`);
  await expect(items.nth(2).getByRole('link', { name: 'Threads post' })).toBeFocused();
  await expect(page.getByRole('button', { name: MODERATION_TEXTS.loadMore })).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('Showing 3 decisions, the whole log.');
  expect(cursors).toEqual([null, 'page-two', 'page-two']);
});
