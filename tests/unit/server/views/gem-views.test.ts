import { expect, test } from 'vitest';
import { toGemList } from '../../../../server/views/gem-views.ts';
import { toThreadCard } from '../../../../server/views/thread-views.ts';
import { THREAD } from './rows.ts';

test('a gem list is the newest gems as public cards, in order, with the count of all of them', () => {
  const older = { ...THREAD, id: '6f1c1a2e-8a52-4c5b-9d0f-3f2b9c1d7e11', shortcode: 'OLD1' };
  const list = toGemList([THREAD, older], 42, 'card');
  expect(list).toEqual({ cards: [toThreadCard(THREAD), toThreadCard(older)], count: 42 });
  expect(list.cards.map((card) => card.id)).toEqual([THREAD.id, older.id]);
});

test('no gems: no cards and a count of zero', () => {
  expect(toGemList([], 0, 'embed')).toEqual({ cards: [], count: 0 });
});

test('in embed mode a gem of an author who did not choose cards carries no copy of the post (decision 070)', () => {
  const consented = {
    ...THREAD,
    id: '6f1c1a2e-8a52-4c5b-9d0f-3f2b9c1d7e12',
    shortcode: 'OWN12',
    shownAsCard: true,
  };
  const [embedded, card] = toGemList([THREAD, consented], 2, 'embed').cards;
  expect(embedded).toMatchObject({ display: 'embed', content: '', image: null, likes: null, replies: null });
  expect(card).toEqual(toThreadCard(consented));
});
