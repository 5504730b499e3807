import { describe, expect, test } from 'vitest';
import {
  SEARCH_KEYWORDS,
  SEED_AUTHORS,
  SEED_EPOCH,
  SEED_POSTS,
  TOPIC_TAGS,
  ownPostsFor,
  postsMatchingKeyword,
  postsWithTag,
  type SeedPost,
} from '../../../../server/simulator/seed-posts.ts';

const epochMs = Date.parse(SEED_EPOCH);
const windowMs = 30 * 24 * 3_600_000;

function share(posts: readonly SeedPost[], predicate: (post: SeedPost) => boolean): number {
  return posts.filter(predicate).length / posts.length;
}

/** Field-level rules shared by the public seed and a user's own posts. */
function expectWellFormed(post: SeedPost) {
  expect(post.id).toMatch(/^\d{17}$/);
  expect(post.shortcode).toMatch(/^[A-Za-z0-9_-]{11}$/);
  expect(post.displayName.length).toBeGreaterThan(0);
  expect(post.text.length).toBeGreaterThanOrEqual(60);
  expect(post.text.length).toBeLessThanOrEqual(400);
  expect(post.text).not.toMatch(/#|https?:|www\./);
  if (['IMAGE', 'VIDEO', 'CAROUSEL_ALBUM'].includes(post.mediaType)) {
    expect(Number.isInteger(post.imageIndex)).toBe(true);
    expect(post.imageIndex).toBeGreaterThanOrEqual(1);
    expect(post.imageIndex).toBeLessThanOrEqual(12);
  } else {
    expect(['TEXT_POST', 'REPOST_FACADE']).toContain(post.mediaType);
    expect(post.imageIndex).toBeNull();
  }
  if (post.topicTag !== null) expect(TOPIC_TAGS).toContain(post.topicTag);
  expect(post.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
  const at = Date.parse(post.timestamp);
  expect(at).toBeLessThan(epochMs);
  expect(at).toBeGreaterThanOrEqual(epochMs - windowMs);
  expect(Number.isInteger(post.likes) && post.likes >= 0 && post.likes <= 5000).toBe(true);
  expect(Number.isInteger(post.replies) && post.replies >= 0 && post.replies <= 400).toBe(true);
}

describe('seeded Threads posts', () => {
  test('exported constants have the agreed shape', () => {
    expect(SEED_EPOCH).toBe('2026-11-20T12:00:00.000Z');
    expect(SEARCH_KEYWORDS).toHaveLength(8);
    expect(TOPIC_TAGS).toHaveLength(6);
    expect(SEED_AUTHORS.length).toBeGreaterThanOrEqual(24);
    expect(new Set(SEED_AUTHORS.map((author) => author.username)).size).toBe(SEED_AUTHORS.length);
    for (const author of SEED_AUTHORS) {
      expect(author.username).toMatch(/^[a-z0-9._]+$/);
      expect(['admin', 'alice', 'bob']).not.toContain(author.username);
    }
  });

  test('at least 220 well-formed posts, each by a seed author', () => {
    expect(SEED_POSTS.length).toBeGreaterThanOrEqual(220);
    const authors = new Map(SEED_AUTHORS.map((author) => [author.username, author.displayName]));
    for (const post of SEED_POSTS) {
      expectWellFormed(post);
      expect(authors.get(post.username)).toBe(post.displayName);
    }
  });

  test('videos, carousels and reposts are appended after the first 240 posts (threads-api.md section 10, media types)', () => {
    const byType = (type: SeedPost['mediaType']) => SEED_POSTS.filter((post) => post.mediaType === type);
    expect(byType('VIDEO')).toHaveLength(8);
    expect(byType('CAROUSEL_ALBUM')).toHaveLength(8);
    const reposts = byType('REPOST_FACADE');
    expect(reposts).toHaveLength(8);
    const ids = new Set(SEED_POSTS.map((post) => post.id));
    for (const repost of reposts) expect(ids.has(repost.repostOf ?? '')).toBe(true);
    // The first 240 keep their ids 1..240; the rich posts continue the sequence.
    const rich = SEED_POSTS.filter((post) => post.mediaType !== 'IMAGE' && post.mediaType !== 'TEXT_POST');
    for (const post of rich) expect(Number(post.id.slice(4))).toBeGreaterThan(240);
    expect(SEED_POSTS.filter((post) => post.usernameHidden)).toHaveLength(1);
  });

  test('ids and shortcodes are unique, and texts mostly distinct', () => {
    expect(new Set(SEED_POSTS.map((post) => post.id)).size).toBe(SEED_POSTS.length);
    expect(new Set(SEED_POSTS.map((post) => post.shortcode)).size).toBe(SEED_POSTS.length);
    expect(new Set(SEED_POSTS.map((post) => post.text)).size).toBeGreaterThanOrEqual(200);
  });

  test('about half images, about 70% tagged, about 8% disappearing', () => {
    const images = share(SEED_POSTS, (post) => post.mediaType === 'IMAGE');
    expect(images).toBeGreaterThanOrEqual(0.45);
    expect(images).toBeLessThanOrEqual(0.55);
    const tagged = share(SEED_POSTS, (post) => post.topicTag !== null);
    expect(tagged).toBeGreaterThanOrEqual(0.6);
    expect(tagged).toBeLessThanOrEqual(0.8);
    const disappearing = SEED_POSTS.filter((post) => post.disappearsAfterHours !== null);
    expect(disappearing.length / SEED_POSTS.length).toBeGreaterThanOrEqual(0.05);
    expect(disappearing.length / SEED_POSTS.length).toBeLessThanOrEqual(0.12);
    for (const post of disappearing) expect(post.disappearsAfterHours).toBeGreaterThan(0);
  });

  test('every keyword is in at least 20 posts, and keyword search is a case-insensitive substring match', () => {
    for (const keyword of SEARCH_KEYWORDS) {
      const found = postsMatchingKeyword(keyword);
      expect(found.length, keyword).toBeGreaterThanOrEqual(20);
      for (const post of found) expect(post.text.toLowerCase()).toContain(keyword.toLowerCase());
      expect(postsMatchingKeyword(keyword.toUpperCase())).toEqual(found);
    }
    expect(postsMatchingKeyword('no such phrase anywhere')).toEqual([]);
  });

  test('every tag is on at least 15 posts, and tag search ignores case and a leading #', () => {
    for (const tag of TOPIC_TAGS) {
      const found = postsWithTag(tag);
      expect(found.length, tag).toBeGreaterThanOrEqual(15);
      for (const post of found) expect(post.topicTag).toBe(tag);
      expect(postsWithTag(`#${tag.toLowerCase()}`)).toEqual(found);
    }
    expect(postsWithTag('NotATag')).toEqual([]);
  });
});

describe('ownPostsFor', () => {
  test('6-12 well-formed posts by the given user, about half images', () => {
    for (const username of ['alice', 'bob', 'maren.makes', 'someone_else']) {
      const posts = ownPostsFor(username);
      expect(posts.length).toBeGreaterThanOrEqual(6);
      expect(posts.length).toBeLessThanOrEqual(12);
      for (const post of posts) {
        expectWellFormed(post);
        expect(post.username).toBe(username);
      }
      expect(new Set(posts.map((post) => post.id)).size).toBe(posts.length);
      expect(new Set(posts.map((post) => post.shortcode)).size).toBe(posts.length);
      const images = posts.filter((post) => post.mediaType === 'IMAGE').length;
      expect(Math.abs(images - posts.length / 2)).toBeLessThanOrEqual(1);
    }
  });

  test('stable for a username, different between users, and apart from the public seed', () => {
    const ids = (username: string) => ownPostsFor(username).map((post) => post.id);
    expect(ids('alice')).toEqual(ids('alice'));
    expect(ownPostsFor('alice')).toEqual(ownPostsFor('alice'));
    const bob = new Set(ids('bob'));
    expect(ids('alice').some((id) => bob.has(id))).toBe(false);
    const seedIds = new Set(SEED_POSTS.map((post) => post.id));
    const seedCodes = new Set(SEED_POSTS.map((post) => post.shortcode));
    for (const post of [...ownPostsFor('alice'), ...ownPostsFor('bob')]) {
      expect(seedIds.has(post.id)).toBe(false);
      expect(seedCodes.has(post.shortcode)).toBe(false);
    }
  });
});
