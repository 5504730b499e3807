import { expect, test } from 'vitest';
import { digestDays, digestName, type PublishedDigest } from '../../../../contract/digest-page.ts';
import { digestJsonFeed, digestRssOptions } from '../../../../src/lib/digest-feeds.ts';
import { testCard } from '../../helpers/thread-card.ts';

const site = new URL('https://curated.example');
const digest = (id: string, week: number, note = ''): PublishedDigest => ({
  id,
  year: 2026,
  week,
  published_at: `2026-11-${String(week - 23).padStart(2, '0')}T01:00:00.000Z`,
  note,
  cards: [
    testCard({
      id: 'a',
      content: 'Grids <b>hold</b> & align',
      permalink: 'https://www.threads.com/@kit/post/A',
    }),
    testCard({ id: 'b', content: 'No link here' }),
  ],
});

test('a digest is named by its week and the days it covers, with the year once unless the week spans two', () => {
  expect(digestName({ year: 2026, week: 48 })).toBe('Week 48, 2026');
  expect(digestDays({ year: 2026, week: 48 })).toBe('Nov 23 – Nov 29, 2026');
  // ISO week 1 of 2026 starts on Monday 29 December 2025.
  expect(digestDays({ year: 2026, week: 1 })).toBe('Dec 29, 2025 – Jan 4, 2026');
});

test("the digests' RSS feed has one item per digest, linked to its page, its markup escaped", () => {
  const options = digestRssOptions([digest('2026-48', 48, 'Type & <grids>'), digest('2026-47', 47)], site);
  expect(options.items).toHaveLength(2);
  const [first] = Array.isArray(options.items) ? options.items : [];
  expect(first).toMatchObject({
    title: 'Week 48, 2026: Nov 23 – Nov 29, 2026',
    link: 'https://curated.example/digest/2026-48',
  });
  expect(first?.description).toContain('<p>Type &amp; &lt;grids&gt;</p>');
  expect(first?.description).toContain('Grids &lt;b&gt;hold&lt;/b&gt; &amp; align');
  // A thread without a permalink links to the digest's page.
  expect(first?.description).toContain('href="https://curated.example/digest/2026-48"');
  expect(first?.customData).toBe('<guid isPermaLink="false">digest-2026-48</guid>');
});

test("the digests' JSON Feed lists each digest's note and threads in words", () => {
  const feed = digestJsonFeed([digest('2026-48', 48, 'A short week.')], site);
  expect(feed.feed_url).toBe('https://curated.example/digest/feed.json');
  expect(feed.items[0]).toMatchObject({
    id: 'digest-2026-48',
    url: 'https://curated.example/digest/2026-48',
    content_text: 'A short week.\n\n1. Kit Brennan: Grids <b>hold</b> & align\n2. Kit Brennan: No link here',
  });
});
