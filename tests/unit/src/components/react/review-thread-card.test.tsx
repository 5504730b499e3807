// @vitest-environment happy-dom
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type { ReviewThread } from '../../../../../contract/review.ts';
import ReviewThreadCard from '../../../../../src/components/react/ReviewThreadCard.tsx';

const thread: ReviewThread = {
  id: 't1',
  handle: '@maren.makes',
  author: 'Maren Holt',
  avatar: '/sample/avatars/maren-makes.svg',
  content: 'Spacing scales beat ad-hoc margins.',
  image: null,
  likes: null,
  replies: null,
  type: 'text',
  timestamp: null,
  permalink: 'https://www.threads.com/@maren.makes/post/ABC',
  topic_tag: null,
  fetched_at: '2026-11-24T10:00:00.000Z',
  source: 'public_search',
  reviewed: false,
};

function chips(card: ReviewThread): string[] {
  const doc = new DOMParser().parseFromString(
    renderToStaticMarkup(<ReviewThreadCard thread={card} />),
    'text/html',
  );
  return [...doc.querySelectorAll('.review-card__author-chips .badge')].map((chip) => chip.textContent ?? '');
}

describe('ReviewThreadCard: the author’s choices (decision 028)', () => {
  test('no chips when the author made no choice', () => {
    expect(chips(thread)).toEqual([]);
    expect(chips({ ...thread, author_opted_out: false, author_removed_count: 0 })).toEqual([]);
  });

  test('an opted-out author and their removals are said in words', () => {
    expect(chips({ ...thread, author_opted_out: true, author_removed_count: 2 })).toEqual([
      'Author asked never to be curated',
      'Author removed 2 posts from the catalogue',
    ]);
  });
});

describe('ReviewThreadCard: the queue’s signals (decision 055)', () => {
  test('the found words are in <mark> as text; history, duplicates, score and reasons are chips in words', () => {
    const card: ReviewThread = {
      ...thread,
      content: 'Spacing <b>scales</b> beat ad-hoc margins.',
      query: 'spacing',
      signals: {
        author_approved: 2,
        author_rejected: 1,
        duplicates: [
          { match: 'text', thread_id: 'a1', status: 'approved', url: '/thread/a1' },
          { match: 'image', thread_id: 'r1', status: 'rejected', url: null },
        ],
        score: 64,
        score_reasons: ['Has a picture: raises the score'],
        grouped: 0,
      },
    };
    const doc = new DOMParser().parseFromString(
      renderToStaticMarkup(<ReviewThreadCard thread={card} />),
      'text/html',
    );
    const content = doc.querySelector('.thread-card__content');
    expect([...(content?.querySelectorAll('mark') ?? [])].map((mark) => mark.textContent)).toEqual([
      'Spacing',
    ]);
    expect(content?.querySelector('b')).toBeNull();
    expect(content?.textContent).toBe(card.content);
    const signals = [...doc.querySelectorAll('.review-signals li')].map((chip) => chip.textContent);
    expect(signals).toEqual([
      'Author: 2 approved, 1 rejected here',
      'Same text as a thread already approved',
      'Same picture as a thread already rejected',
      'Score 64 of 100',
      'Has a picture: raises the score',
    ]);
    expect(doc.querySelector('.review-signals a')?.getAttribute('href')).toBe('/thread/a1');
  });
});
