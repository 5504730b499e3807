import { sql } from 'drizzle-orm';
import { beforeEach, expect, test } from 'vitest';
import { threads } from '../../../../server/db/schema.ts';
import { approvedCards } from '../../../../server/publisher/export/card-source.ts';
import { createCatalogueRepository, type CatalogueKey } from '../../../../server/repositories/catalogue.ts';
import type { NewThread } from '../../../../server/repositories/threads.ts';
import { toThreadCard } from '../../../../server/views/thread-views.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// The export reads the approved threads page by page (keyset); the pages, joined, must be exactly
// listApproved's list, whatever falls on a page boundary: ties on the time, missing post times
// (the time found stands in, with microseconds a JS Date cannot hold), other statuses.

const base = Date.parse('2026-11-21T10:00:00.000Z');

function row(i: number, status: NewThread['status'] = 'approved'): NewThread {
  return {
    shortcode: `K${String((i * 37) % 1000).padStart(4, '0')}${i}`,
    source: 'public_search',
    status,
    username: 'kit',
    authorName: 'Kit',
    text: `post ${i}`,
    permalink: `https://www.threads.com/@kit/post/K${i}`,
    // Groups of five share one instant; every seventh has no post time at all.
    postedAt: i % 7 === 0 ? null : new Date(base - Math.floor(i / 5) * 60_000),
  };
}

beforeEach(async () => resetDatabase(await testDatabase()));

test(
  'pages of approved threads, joined, are listApproved, ties and microseconds included',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    await db
      .insert(threads)
      .values([
        ...Array.from({ length: 180 }, (_, i) => row(i)),
        ...Array.from({ length: 20 }, (_, i) => row(500 + i, i % 2 === 0 ? 'pending' : 'rejected')),
      ]);
    // Found-at times with microseconds, some equal: a key rounded to milliseconds would skip or repeat rows.
    await db.execute(
      sql`update ${threads} set created_at = timestamptz '2026-11-21 09:00:00.123456+00' + (((length(shortcode) + ascii(right(shortcode, 1))) % 4) * interval '1 microsecond') where posted_at is null`,
    );
    const catalogue = createCatalogueRepository(db);
    const expected = (await catalogue.listApproved()).map((thread) => thread.id);
    expect(expected).toHaveLength(180);

    for (const size of [3, 7, 25, 1000]) {
      const ids: string[] = [];
      let after: CatalogueKey | null = null;
      let pages = 0;
      do {
        const page: { rows: { id: string }[]; next: CatalogueKey | null } = await createCatalogueRepository(
          db,
        ).listApprovedPage(after, size);
        expect(page.rows.length).toBeLessThanOrEqual(size);
        ids.push(...page.rows.map((thread) => thread.id));
        after = page.next;
        pages += 1;
      } while (after && pages < 1000);
      expect(ids, `pages of ${size}`).toEqual(expected);
    }
  },
);

// Tagged engine: the card source reads JSON PostgreSQL writes (json_build_array, timestamptz as text).
test(
  'the card source streams the same cards as listApproved, in batches, in both display modes',
  { tags: ['engine'] },
  async () => {
    const { db } = await testDatabase();
    // Every column a card shows, each in its odd cases: no author, pictures, topic tags, quotes and
    // other characters JSON escapes, unknown counts, a consent to cards, no post time.
    await db.insert(threads).values(
      Array.from({ length: 45 }, (_, i): NewThread => {
        const thread = row(i);
        return {
          ...thread,
          username: i % 9 === 4 ? null : thread.username,
          authorName: i % 6 === 1 ? null : `Kit "K" \\ ${i} \u00e9\u{1f600}\n\t`,
          text: `post ${i}: "quoted", back\\slash, tab\t, line\nbreak, \u2028 and \u{1f3a8}`,
          imageUrl: i % 3 === 0 ? `https://cdn.example.com/${i}.jpg?oe=1&x="y"` : null,
          topicTag: i % 4 === 0 ? null : i % 4 === 1 ? '  ' : `Tag ${i % 5}`,
          likes: i % 5 === 0 ? null : i * 11,
          replies: i % 5 === 0 ? null : i,
        };
      }),
    );
    await db.execute(
      sql`update ${threads} set created_at = timestamptz '2026-11-21 09:00:00.123456+00' + ((length(shortcode) % 4) * interval '1 microsecond') where posted_at is null`,
    );
    await db.execute(sql`update ${threads} set shown_as_card = true where likes > 200`);
    const threadsRead = await createCatalogueRepository(db).listApproved();
    expect(threadsRead.filter((thread) => thread.shownAsCard).length).toBeGreaterThan(0);
    expect(threadsRead.filter((thread) => !thread.shownAsCard).length).toBeGreaterThan(0);
    for (const options of [
      { pictureBase: 'https://api.example.com' },
      { display: 'embed' as const },
      { display: 'card' as const },
    ]) {
      const expected = threadsRead.map((thread) => toThreadCard(thread, options));
      const batches: number[] = [];
      const cards = [];
      for await (const batch of approvedCards(db, options, 10)()) {
        batches.push(batch.length);
        cards.push(...batch);
      }
      expect(batches).toEqual([10, 10, 10, 10, 5]);
      // Byte for byte as the files carry them, key order included.
      expect(cards.map((card) => JSON.stringify(card))).toEqual(expected.map((card) => JSON.stringify(card)));
    }
  },
);
