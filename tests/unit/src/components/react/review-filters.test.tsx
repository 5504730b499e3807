// @vitest-environment happy-dom
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, expect, test } from 'vitest';
import { REVIEW_QUEUE_TEXTS } from '../../../../../contract/review-queue.ts';
import { REVIEW_SIGNAL_TEXTS } from '../../../../../contract/review-signals.ts';
import type { ReviewThread } from '../../../../../contract/review.ts';
import ReviewFilters from '../../../../../src/components/react/ReviewFilters.tsx';
import { $reviewQueue } from '../../../../../src/stores/review-queue.ts';

const initial = $reviewQueue.get();
afterEach(() => $reviewQueue.set(initial));

const thread = (likes: number | null) => ({ id: `t${String(likes)}`, likes }) as unknown as ReviewThread;

function orderOptions(): string[] {
  const doc = new DOMParser().parseFromString(renderToStaticMarkup(<ReviewFilters />), 'text/html');
  const select = [...doc.querySelectorAll('label')].find((label) =>
    label.textContent?.startsWith(REVIEW_QUEUE_TEXTS.sortLabel),
  );
  return [...(select?.querySelectorAll('option') ?? [])].map((option) => option.textContent ?? '');
}

// Threads reports likes only for members' own posts (threads-api.md section 4).
test("'Most liked first' appears only where likes are known", () => {
  $reviewQueue.setKey('threads', [thread(null), thread(null)]);
  expect(orderOptions()).toEqual([REVIEW_QUEUE_TEXTS.newest, REVIEW_SIGNAL_TEXTS.byScore]);

  $reviewQueue.setKey('threads', [thread(null), thread(12)]);
  expect(orderOptions()).toEqual([
    REVIEW_QUEUE_TEXTS.newest,
    REVIEW_QUEUE_TEXTS.mostLiked,
    REVIEW_SIGNAL_TEXTS.byScore,
  ]);

  // While it is the chosen order it stays, so the select never shows a value it does not list.
  $reviewQueue.set({ ...initial, threads: [thread(null)], filter: { ...initial.filter, sort: 'likes' } });
  expect(orderOptions()).toEqual([
    REVIEW_QUEUE_TEXTS.newest,
    REVIEW_QUEUE_TEXTS.mostLiked,
    REVIEW_SIGNAL_TEXTS.byScore,
  ]);
});

test('the filters to hide authors rejected twice and to group duplicates are labelled checkboxes', () => {
  const html = renderToStaticMarkup(<ReviewFilters />);
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const checks = [...doc.querySelectorAll('label')].filter((label) =>
    label.querySelector('input[type="checkbox"]'),
  );
  expect(checks.map((label) => label.textContent)).toEqual([
    REVIEW_SIGNAL_TEXTS.hideRejectedAuthors,
    REVIEW_SIGNAL_TEXTS.groupDuplicates,
  ]);
});
