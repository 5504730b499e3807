// @vitest-environment happy-dom
import { getRssString } from '@astrojs/rss';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import type { PublishedDigest } from '../../../../contract/digest-page.ts';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { matchCards } from '../../../../src/lib/catalogue-search.ts';
import { digestJsonFeed, digestRssOptions } from '../../../../src/lib/digest-feeds.ts';
import { buildJsonFeed, buildRssOptions, itemTitle } from '../../../../src/lib/feeds.ts';
import { testCard } from '../../helpers/thread-card.ts';

// Decision 070: a post shown through Threads' embed has no copy of it in our feeds, only our words.

const site = new URL('https://curated.example/');
const ID = '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d';
const PERMALINK = 'https://www.threads.com/@maren.makes/post/ABC123';
// Words no feed item of an embed may carry: if the export ever left the copy in, it stays out here.
const COPY = 'Spacing scales beat ad-hoc margins';

const embed: ThreadCard = testCard({
  id: ID,
  type: 'image',
  author: 'maren.makes',
  handle: '@maren.makes',
  avatar: '/api/media/avatar-of-maren',
  content: COPY,
  image: '/api/media/picture-of-post',
  timestamp: '2026-11-21T08:11:18.306Z',
  permalink: PERMALINK,
  topic_tag: 'Design & Systems',
  display: 'embed',
});

const card: ThreadCard = testCard({
  id: 'sample-000002',
  content: 'Grids hold.',
  permalink: 'https://www.threads.com/@kit/post/B',
});

describe('site and topic feeds', () => {
  test('an embed item is titled by whose post it is and says where, not what', () => {
    expect(itemTitle(embed)).toBe('Post by @maren.makes on Threads');
    expect(itemTitle({ ...embed, permalink: 'https://www.threads.com/t/XYZ' })).toBe('Post on Threads');
    const [item, other] = buildJsonFeed([embed, card], site).items;
    expect(item).toMatchObject({
      id: ID,
      url: PERMALINK,
      title: 'Post by @maren.makes on Threads',
      content_text: [
        'Post by @maren.makes on Threads, curated in #Design & Systems.',
        `Thread page: https://curated.example/thread/${ID}`,
        `On Threads: ${PERMALINK}`,
      ].join('\n'),
      tags: ['Design & Systems'],
      authors: [{ name: 'maren.makes', url: 'https://www.threads.com/@maren.makes' }],
    });
    // No picture of the post or of its author.
    expect(item).not.toHaveProperty('image');
    expect(item?.authors[0]).not.toHaveProperty('avatar');
    expect(JSON.stringify(item)).not.toContain(COPY);
    // A card shown as ours keeps its text.
    expect(other?.content_text).toBe('Grids hold.');
  });

  test("the RSS item's description is our words as HTML, escaped, with no picture", async () => {
    const xml = await getRssString(buildRssOptions([embed, card], site));
    expect(xml).not.toContain(COPY);
    expect(xml).not.toContain('picture-of-post');
    const items = (
      new XMLParser({
        ignoreAttributes: false,
        parseTagValue: false,
        isArray: (name) => name === 'item',
      }).parse(xml) as { rss: { channel: { item: { title: string; link: string; description: string }[] } } }
    ).rss.channel.item;
    expect(items[0]?.title).toBe('Post by @maren.makes on Threads');
    expect(items[0]?.link).toBe(PERMALINK);
    const body = new DOMParser().parseFromString(items[0]?.description ?? '', 'text/html');
    expect(body.body.textContent).toBe(
      'Post by @maren.makes on Threads, curated in #Design & Systems.Thread page · View on Threads',
    );
    expect([...body.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://curated.example/topics/design-systems',
      `https://curated.example/thread/${ID}`,
      PERMALINK,
    ]);
    expect(items[1]?.description).toBe('Grids hold.');
  });

  test('a sample card (no thread page) links to the post alone; one without a topic names none', () => {
    const [item] = buildJsonFeed([{ ...embed, id: 'sample-000001', topic_tag: null }], site).items;
    expect(item?.content_text).toBe(`Post by @maren.makes on Threads.\nOn Threads: ${PERMALINK}`);
  });
});

describe('digest feeds', () => {
  const digest: PublishedDigest = {
    id: '2026-47',
    year: 2026,
    week: 47,
    published_at: '2026-11-23T01:00:00.000Z',
    note: 'Two for the week.',
    cards: [embed, card],
  };

  test('a digest lists an embedded post by whose it is, linked to the post, with none of its copy', () => {
    const [json] = digestJsonFeed([digest], site).items;
    expect(json?.content_text).toBe(
      'Two for the week.\n\n1. Post by @maren.makes on Threads\n2. Kit Brennan: Grids hold.',
    );
    const [rss] = Array.isArray(digestRssOptions([digest], site).items)
      ? (digestRssOptions([digest], site).items as { description?: string }[])
      : [];
    expect(rss?.description).toContain(`<li><a href="${PERMALINK}">Post by @maren.makes on Threads</a></li>`);
    expect(JSON.stringify([json, rss])).not.toContain(COPY);
  });
});

describe('search', () => {
  test('with no text, an embed card is found by its handle and its topic', () => {
    const blank = { ...embed, content: '' };
    const cards = [card, blank];
    expect(matchCards(cards, 'maren')).toEqual([1]);
    expect(matchCards(cards, 'design')).toEqual([1]);
    expect(matchCards(cards, 'spacing')).toEqual([]);
  });
});
