import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ThreadCardListSchema } from '../../../../contract/thread-card.ts';
import { SAMPLE_POSTS } from '../../../../scripts/sample/corpus.ts';
import { buildSampleCards } from '../../../../scripts/sample/catalogue.ts';

const now = new Date('2026-11-21T10:00:00.000Z');

describe('buildSampleCards', () => {
  test('the corpus has at least 48 distinct posts, about half with images', () => {
    expect(new Set(SAMPLE_POSTS.map((post) => post.text)).size).toBeGreaterThanOrEqual(48);
    const share = SAMPLE_POSTS.filter((post) => post.image).length / SAMPLE_POSTS.length;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
  });

  test.each([1, 48, 1000])('writes exactly %d valid cards with unique ids, newest first', (count) => {
    const cards = ThreadCardListSchema.parse(buildSampleCards(count, now));
    expect(cards).toHaveLength(count);
    expect(new Set(cards.map((card) => card.id)).size).toBe(count);
    const times = cards.map((card) => Date.parse(card.timestamp ?? ''));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Math.max(...times)).toBeLessThan(now.getTime());
  });

  test('the same seed gives the same catalogue; another seed does not', () => {
    expect(buildSampleCards(50, now, 3)).toEqual(buildSampleCards(50, now, 3));
    expect(buildSampleCards(50, now, 3)).not.toEqual(buildSampleCards(50, now, 4));
  });

  test('every image and avatar a card names exists under public/', async () => {
    const cards = buildSampleCards(SAMPLE_POSTS.length * 2, now);
    const files = new Set(cards.flatMap((card) => [card.avatar, card.image ?? card.avatar]));
    for (const file of files) {
      await expect(readFile(path.resolve('public', `.${file}`)), file).resolves.toBeInstanceOf(Buffer);
    }
  });
});
