import { threads } from '../../../server/db/schema.ts';
import type { NewThread } from '../../../server/repositories/threads.ts';
import { buildSampleCards } from '../../../scripts/sample/catalogue.ts';
import { testDatabase } from './database.ts';

/** The moment the seeded threads are posted back from. */
export const CATALOGUE_NOW = new Date('2026-11-21T10:00:00.000Z');
const now = CATALOGUE_NOW;
const INSERT_BATCH = 4000;

/**
 * `count` thread rows built from the sample corpus, newest first, one post every 15 to 105 minutes
 * back from `now`. Some have no topic, a few a Cyrillic one, and two spellings of one topic alternate.
 */
export function threadRows(count: number, status: NewThread['status'] = 'approved'): NewThread[] {
  return buildSampleCards(count, now).map((card, i) => {
    const username = card.handle.replace(/^@/, '');
    const shortcode = `P${String(i).padStart(7, '0')}`;
    let topicTag = card.topic_tag ?? null;
    if (i % 50 === 0) topicTag = null;
    else if (i % 97 === 0) topicTag = 'Типографика';
    else if (i % 89 === 0) topicTag = i % 2 === 0 ? 'UX Design' : 'ux-design';
    else if (i % 83 === 0) topicTag = '🎨';
    return {
      shortcode,
      source: 'public_search',
      status,
      username,
      authorName: card.author,
      text: card.content,
      imageUrl: card.image,
      topicTag,
      permalink: `https://www.threads.com/@${username}/post/${shortcode}`,
      likes: card.likes,
      replies: card.replies,
      postedAt: new Date(card.timestamp ?? now),
    };
  });
}

export async function insertThreads(rows: NewThread[]): Promise<void> {
  const { db } = await testDatabase();
  await db.transaction(async (tx) => {
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      await tx.insert(threads).values(rows.slice(start, start + INSERT_BATCH));
    }
  });
}
