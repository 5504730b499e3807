import { createHash } from 'node:crypto';
import { createRandom, pick } from '../seeded-random.ts';
import {
  CLOSERS,
  OPENERS,
  SEED_AUTHORS,
  TEMPLATES,
  TOPICS,
  type Slot,
  type Topic,
} from './seed-fragments.ts';
export { SEARCH_KEYWORDS, SEED_AUTHORS, TOPIC_TAGS } from './seed-fragments.ts';

/** One synthetic public Threads post served by the simulated provider. */
export interface SeedPost {
  /** Threads media id: a unique 17-digit decimal string. */
  id: string;
  username: string;
  displayName: string;
  text: string;
  /** Media types of threads-api.md section 2 (media retrieval). */
  mediaType: 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM' | 'REPOST_FACADE';
  /**
   * 1..12 (the simulator serves design-NN.webp): an IMAGE's picture, a VIDEO's thumbnail, a
   * CAROUSEL_ALBUM's first child (the next two follow); null for text and reposts.
   */
  imageIndex: number | null;
  /** A REPOST_FACADE's reposted post (threads-api.md section 10, media types). */
  repostOf?: string;
  /**
   * Graph leaves out the username of an author it will not show (a deactivated account): one seeded
   * item is that malformed item, which must cost a client that item only, never its page.
   */
  usernameHidden?: boolean;
  topicTag: string | null;
  shortcode: string;
  timestamp: string;
  likes: number;
  replies: number;
  /**
   * Hours after the server starts at which the post is deleted at the source (null: never).
   * About 8% of posts.
   */
  disappearsAfterHours: number | null;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WINDOW_MS = 30 * DAY;
const POST_COUNT = 240;
const IMAGE_COUNT = 12;

/** The fixed "now" of the seed data: every timestamp falls in the 30 days before it. */
export const SEED_EPOCH = '2026-11-20T12:00:00.000Z';
const EPOCH_MS = Date.parse(SEED_EPOCH);

function composeText(rng: () => number, topic: Topic): string {
  const slots: Record<Slot, string> = {
    opener: pick(rng, OPENERS),
    insight: pick(rng, topic.insights),
    specific: pick(rng, topic.specifics),
    closer: pick(rng, CLOSERS),
    question: pick(rng, topic.questions),
    context: `For context: ${pick(rng, topic.specifics)}`,
  };
  return pick(rng, TEMPLATES)
    .map((slot) => slots[slot])
    .join(' ');
}

/** A text not used before (within 60-400 characters); retrying keeps the seed deterministic. */
function uniqueText(rng: () => number, topic: Topic, used: Set<string>): string {
  for (;;) {
    const text = composeText(rng, topic);
    if (text.length >= 60 && text.length <= 400 && !used.has(text)) {
      used.add(text);
      return text;
    }
  }
}

const SHORTCODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function shortcode(rng: () => number): string {
  let code = '';
  for (let i = 0; i < 11; i++) code += SHORTCODE_ALPHABET.charAt(Math.floor(rng() * 64));
  return code;
}

/** Seconds precision, like the Graph API, and strictly inside the window before the epoch. */
function timestampIn(rng: () => number): string {
  const back = MINUTE + Math.floor(rng() * (WINDOW_MS - 2 * MINUTE));
  return new Date(Math.floor((EPOCH_MS - back) / 1000) * 1000).toISOString();
}

/** Few posts go viral: cubing the draw skews likes towards small numbers. */
function engagement(rng: () => number): { likes: number; replies: number } {
  const likes = Math.round(5000 * rng() ** 3);
  return { likes, replies: Math.min(400, Math.round(likes * (0.02 + 0.1 * rng()))) };
}

function buildSeedPosts(): SeedPost[] {
  const rng = createRandom(0x7e1ead5);
  const usedTexts = new Set<string>();
  const usedCodes = new Set<string>();
  const drafts: Omit<SeedPost, 'id'>[] = [];
  for (let i = 0; i < POST_COUNT; i++) {
    // Round-robin over topics so every keyword gets the same share of posts, and counting rounds (cycles)
    // lets images, tags and deletions be spread exactly rather than left to chance.
    const topic = TOPICS[i % TOPICS.length];
    if (!topic) throw new Error('no topics');
    const cycle = Math.floor(i / TOPICS.length);
    const author = pick(rng, SEED_AUTHORS);
    // Flipping the parity every cycle gives each topic, and the whole set, exactly half images.
    const isImage = (i + cycle) % 2 === 0;
    let code = shortcode(rng);
    while (usedCodes.has(code)) code = shortcode(rng);
    usedCodes.add(code);
    drafts.push({
      ...author,
      text: uniqueText(rng, topic, usedTexts),
      mediaType: isImage ? 'IMAGE' : 'TEXT_POST',
      imageIndex: isImage ? 1 + Math.floor(rng() * IMAGE_COUNT) : null,
      // Seven cycles in ten are tagged (70%), rotating through the topic's tags.
      topicTag: cycle % 10 < 7 ? (topic.tags[cycle % topic.tags.length] ?? null) : null,
      shortcode: code,
      timestamp: timestampIn(rng),
      ...engagement(rng),
      // Every 13th post (coprime with the topic count, so spread over topics): about 8%.
      disappearsAfterHours: i % 13 === 7 ? 1 + Math.floor(rng() * 72) : null,
    });
  }
  // Real media ids grow with time, so ids are handed out oldest first; the list itself is newest first.
  drafts.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const posts = drafts.map((draft, index) =>
    Object.freeze({ id: `1789${String(index + 1).padStart(13, '0')}`, ...draft }),
  );
  return [...posts, ...richMediaPosts(posts, usedTexts, usedCodes)].sort((a, b) =>
    b.timestamp.localeCompare(a.timestamp),
  );
}

const RICH_TYPES = ['VIDEO', 'CAROUSEL_ALBUM', 'REPOST_FACADE'] as const;
const RICH_COUNT = 24;

/**
 * Videos, carousels and reposts (threads-api.md section 10, media types), appended after the first
 * 240 posts with a random stream of their own, so those posts, their ids and texts stay as they were.
 * Their ids continue the sequence (a licence: real ids grow with time). A repost carries the text of
 * the post it reposts for matching only (Graph sends a facade without text); the first video hides
 * its author, the malformed item.
 */
function richMediaPosts(base: readonly SeedPost[], usedTexts: Set<string>, usedCodes: Set<string>) {
  const rng = createRandom(0x5eed_2ed1a);
  const extras: SeedPost[] = [];
  for (let i = 0; i < RICH_COUNT; i++) {
    const topic = TOPICS[i % TOPICS.length];
    if (!topic) throw new Error('no topics');
    const mediaType = RICH_TYPES[i % RICH_TYPES.length] ?? 'VIDEO';
    const reposted = mediaType === 'REPOST_FACADE' ? base[Math.floor(rng() * base.length)] : undefined;
    let code = shortcode(rng);
    while (usedCodes.has(code)) code = shortcode(rng);
    usedCodes.add(code);
    extras.push(
      Object.freeze({
        id: `1789${String(base.length + i + 1).padStart(13, '0')}`,
        ...pick(rng, SEED_AUTHORS),
        text: reposted?.text ?? uniqueText(rng, topic, usedTexts),
        mediaType,
        imageIndex: reposted ? null : 1 + Math.floor(rng() * IMAGE_COUNT),
        topicTag: i % 10 < 7 ? (topic.tags[i % topic.tags.length] ?? null) : null,
        shortcode: code,
        timestamp: timestampIn(rng),
        ...engagement(rng),
        disappearsAfterHours: null,
        ...(reposted ? { repostOf: reposted.id } : {}),
        ...(i === 0 ? { usernameHidden: true } : {}),
      }),
    );
  }
  return extras;
}

/** The seeded public posts, newest first, identical on every run. */
export const SEED_POSTS: readonly SeedPost[] = Object.freeze(buildSeedPosts());

/** Posts whose text contains `keyword` as a case-insensitive substring (KEYWORD search). */
export function postsMatchingKeyword(keyword: string): SeedPost[] {
  const needle = keyword.trim().toLowerCase();
  if (!needle) return [];
  return SEED_POSTS.filter((post) => post.text.toLowerCase().includes(needle));
}

/** Posts whose topicTag equals `tag` without regard to case, ignoring a leading '#' (TAG search). */
export function postsWithTag(tag: string): SeedPost[] {
  const wanted = tag.trim().replace(/^#/, '').toLowerCase();
  return SEED_POSTS.filter((post) => post.topicTag?.toLowerCase() === wanted);
}

function displayNameFor(username: string): string {
  const words = username.split(/[._]+/).filter(Boolean);
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ') || username;
}

/**
 * The signed-in user's own posts for `/me/threads`: 6-12 posts, stable per username (ignoring case), with
 * ids under the 1792 prefix so they never collide with SEED_POSTS (1789), and a 9-digit hash of the name
 * so two users' ids collide only by a one-in-a-billion chance.
 */
export function ownPostsFor(username: string): SeedPost[] {
  const digest = createHash('sha256').update(username.toLowerCase()).digest();
  const rng = createRandom(digest.readUInt32BE(0));
  const idBase = `1792${(digest.readBigUInt64BE(4) % 10n ** 9n).toString().padStart(9, '0')}`;
  const count = 6 + (digest.readUInt8(12) % 7);
  const imageOffset = digest.readUInt8(13) % 2;
  const displayName = displayNameFor(username);
  const usedTexts = new Set<string>();
  const drafts: Omit<SeedPost, 'id'>[] = [];
  for (let i = 0; i < count; i++) {
    const topic = pick(rng, TOPICS);
    // Alternating keeps the share of images at about half even for six posts.
    const isImage = (i + imageOffset) % 2 === 0;
    drafts.push({
      username,
      displayName,
      text: uniqueText(rng, topic, usedTexts),
      mediaType: isImage ? 'IMAGE' : 'TEXT_POST',
      imageIndex: isImage ? 1 + Math.floor(rng() * IMAGE_COUNT) : null,
      topicTag: rng() < 0.7 ? pick(rng, topic.tags) : null,
      shortcode: createHash('sha256')
        .update(`own:${username.toLowerCase()}:${i}`)
        .digest('base64url')
        .slice(0, 11),
      timestamp: timestampIn(rng),
      ...engagement(rng),
      disappearsAfterHours: null,
    });
  }
  drafts.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return drafts
    .map((draft, index) => ({ id: `${idBase}${String(index + 1).padStart(4, '0')}`, ...draft }))
    .reverse();
}
