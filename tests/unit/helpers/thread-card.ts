import type { ThreadCard } from '../../../contract/thread-card.ts';

/** A plain text card by one author; `extra` sets what a test is about. */
export function testCard(extra: Partial<ThreadCard> & Pick<ThreadCard, 'id'>): ThreadCard {
  return {
    type: 'text',
    author: 'Kit Brennan',
    handle: '@kit',
    avatar: '/a.webp',
    content: '',
    image: null,
    likes: null,
    replies: null,
    topic_tag: null,
    ...extra,
  };
}
