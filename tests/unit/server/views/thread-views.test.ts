import { expect, test } from 'vitest';
import { ThreadCardSchema } from '../../../../contract/thread-card.ts';
import type { ThreadRow } from '../../../../server/repositories/threads.ts';
import { toThreadCard } from '../../../../server/views/thread-views.ts';

const row = (topicTag: string | null) =>
  ({
    id: '6f1c1a2e-8a52-4c5b-9d0f-3f2b9c1d7e10',
    shortcode: 'ABC123',
    username: 'maren.makes',
    authorName: 'Maren Holt',
    text: 'Spacing scales beat ad-hoc margins.',
    imageUrl: null,
    likes: null,
    replies: null,
    permalink: 'https://www.threads.com/@maren.makes/post/ABC123',
    postedAt: new Date('2026-11-21T08:00:00.000Z'),
    createdAt: new Date('2026-11-21T09:00:00.000Z'),
    topicTag,
  }) as unknown as ThreadRow;

test.each([
  ['a short tag stays as it is', 'DesignSystems', 'DesignSystems'],
  ['no tag', null, null],
  ['a blank tag is none', '   ', null],
  ['a long tag is cut to 50 units', 'x'.repeat(80), 'x'.repeat(50)],
  // 26 emoji are 52 UTF-16 units: cut at a whole emoji, never half of one.
  ['emoji are cut whole', '🎨'.repeat(26), '🎨'.repeat(25)],
])('%s', (_name, tag, expected) => {
  const card = toThreadCard(row(tag));
  expect(card.topic_tag).toBe(expected);
  // The build validates every card it renders: whatever is stored, the card must pass.
  expect(ThreadCardSchema.safeParse(card).success).toBe(true);
});
