import type { ThreadCard } from '../../contract/thread-card.ts';
import { SAMPLE_AUTHORS, SAMPLE_POSTS } from './corpus.ts';
import { SAMPLE_IMAGE_COUNT, sampleAvatarUrl, sampleImageUrl } from './images.ts';
import { createRandom, pick } from '../../server/seeded-random.ts';

/** Topic tags by the words that file a sample post under them; the first match wins. */
const SAMPLE_TOPICS: readonly [string, RegExp][] = [
  ['Accessibility', /focus|contrast|screen reader|a11y|alt text|accessib|keyboard/i],
  ['Typography', /type|font|line height|kerning|reading|letter/i],
  ['Color', /colou?r|dark mode|palette|accent|saturat/i],
  ['Motion', /motion|animat|micro-interaction|transition|\bms\b/i],
  ['UXResearch', /tested|test with|interview|usability|research|users|people/i],
  ['DesignSystems', /design system|token|component|spacing|scale|grid/i],
];

/** The topic a sample post is filed under (every post has one, so every topic page has threads). */
export function sampleTopicFor(text: string): string {
  return SAMPLE_TOPICS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'UIDesign';
}

/** Builds `count` sample cards, newest first, from the hand-written corpus; the same seed gives the same cards. */
export function buildSampleCards(count: number, now: Date, seed = 7): ThreadCard[] {
  const random = createRandom(seed);
  const cards: ThreadCard[] = [];
  let time = now.getTime() - 20 * 60_000;
  for (let i = 0; i < count; i++) {
    const post = SAMPLE_POSTS[i % SAMPLE_POSTS.length];
    if (!post) throw new Error('the sample corpus is empty');
    const author = pick(random, SAMPLE_AUTHORS);
    // Likes and replies are only known for some posts (the API reports them for own posts only).
    const known = random() < 0.7;
    cards.push({
      id: `sample-${String(i + 1).padStart(6, '0')}`,
      type: post.image ? 'image' : 'text',
      author: author.name,
      handle: `@${author.handle}`,
      avatar: sampleAvatarUrl(author.handle),
      content: post.text,
      image: post.image ? sampleImageUrl((i % SAMPLE_IMAGE_COUNT) + 1) : null,
      likes: known ? Math.floor(random() ** 2 * 2400) : null,
      replies: known ? Math.floor(random() ** 2 * 180) : null,
      timestamp: new Date(time).toISOString(),
      topic_tag: sampleTopicFor(post.text),
    });
    time -= Math.floor(15 + random() * 90) * 60_000;
  }
  return cards;
}
