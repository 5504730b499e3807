import { describe, expect, test } from 'vitest';
import type { ThreadCard } from '../../../../../contract/thread-card.ts';
import { socialCardSvg } from '../../../../../server/services/social-images/social-card.ts';
import { threadSocialCard } from '../../../../../server/services/social-images/thread-picture.ts';

const SECRET = 'Kerning is a conversation between letters';
const card: ThreadCard = {
  id: '11111111-1111-4111-8111-111111111111',
  type: 'image',
  author: 'Ada Lovelace',
  handle: '@ada.l',
  avatar: '/avatars/a.svg',
  content: SECRET,
  image: 'https://cdn.example/p.jpg',
  likes: 7,
  replies: 2,
  timestamp: '2026-11-20T12:00:00.000Z',
  permalink: 'https://www.threads.com/@ada.l/post/C0de1',
  topic_tag: 'Typography',
};

describe('threadSocialCard', () => {
  test("an embed card's picture: our name, the permalink's handle and the topic, none of the post", () => {
    // Even a card that still carried the post's copy gives none of it once it is an embed card.
    const words = threadSocialCard({ ...card, display: 'embed' });
    expect(words).toEqual({
      kind: 'Thread',
      headline: '@ada.l',
      headlineStyle: 'name',
      body: 'A post on #Typography, curated from Threads.',
      footer: '#Typography · Nov 20, 2026',
    });
    const svg = socialCardSvg(words);
    expect(svg).toContain('>Curated Threads</text>');
    expect(svg).toContain('>@ada.l</text>');
    expect(svg).not.toContain('Kerning');
    expect(svg).not.toContain('Ada Lovelace');
    expect(svg).not.toContain('cdn.example');
    expect(svg).not.toContain('<image');
  });

  test('a /t/ permalink names no one, and a post without a topic says so plainly', () => {
    const words = threadSocialCard({
      ...card,
      display: 'embed',
      permalink: 'https://www.threads.com/t/C0de1',
      topic_tag: null,
    });
    expect(words.headline).toBe('A post on Threads');
    expect(words.body).toBe('A post curated from Threads.');
    expect(words.footer).toBe('Nov 20, 2026');
  });

  test('a card keeps its text, as before', () => {
    expect(threadSocialCard(card)).toEqual({
      kind: 'Thread',
      headline: SECRET,
      headlineStyle: 'quote',
      body: '',
      footer: '@ada.l · #Typography · Nov 20, 2026',
    });
  });
});
