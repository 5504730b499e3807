import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { EMBED_CARD_ATTRIBUTE, EMBED_SHOW_ATTRIBUTE } from '../../../../contract/embed-names.ts';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { pageCsp } from '../../../../server/http/page-csp.ts';
import { startTags } from '../../../../server/http/html-tags.ts';
import { THREAD_TEMPLATE_FILE } from '../../../../server/http/site-files.ts';
import { threadPageHtml } from '../../../../server/publisher/serve/thread-page-html.ts';
import {
  parseThreadTemplate,
  type ThreadTemplate,
} from '../../../../server/publisher/serve/thread-template.ts';
import { TEST_SITE } from '../../../site-under-test.ts';

// Decision 070: a thread page whose card is shown through Threads' embed, filled from the real built
// template, carries the embed blockquote and no copy of the post.
const SECRET = 'Kerning is a conversation between letters';
const ORIGIN = new URL('https://curated.example');
const PERMALINK = 'https://www.threads.com/@ada.l/post/C0de1';
let built: string;
let template: ThreadTemplate;

beforeAll(async () => {
  built = await readFile(path.join(TEST_SITE.siteDir, THREAD_TEMPLATE_FILE), 'utf8');
  template = parseThreadTemplate(built);
});

function embedCard(id: string, overrides: Partial<ThreadCard> = {}): ThreadCard {
  return {
    id,
    type: 'text',
    author: '@ada.l',
    handle: '@ada.l',
    avatar: '/avatars/a.svg',
    content: '',
    image: null,
    likes: null,
    replies: null,
    timestamp: '2026-11-20T12:00:00.000Z',
    permalink: PERMALINK,
    topic_tag: 'Typography',
    display: 'embed',
    ...overrides,
  };
}

const ID = '11111111-1111-4111-8111-111111111111';
const RELATED_EMBED = '22222222-2222-4222-8222-222222222222';
const RELATED_CARD = '33333333-3333-4333-8333-333333333333';

function fill(card: ThreadCard): string {
  return threadPageHtml(
    template,
    {
      card,
      topic: { tag: 'Typography', slug: 'typography' },
      related: [
        embedCard(RELATED_EMBED, { permalink: 'https://www.threads.com/@grace.h/post/C0de2' }),
        {
          ...embedCard(RELATED_CARD, { permalink: 'https://www.threads.com/@own.author/post/C0de3' }),
          display: 'card',
          author: 'Own Author',
          handle: '@own.author',
          content: 'A consenting author keeps the excerpt',
        },
      ],
    },
    ORIGIN,
  );
}

test('the page holds the embed blockquote with its placeholder, and none of the post', () => {
  // Even a card that still carried the post's copy shows none of it once it is an embed card.
  const html = fill(
    embedCard(ID, { author: 'Ada Lovelace', content: SECRET, image: 'https://cdn.example/p.jpg', likes: 7 }),
  );
  expect(html).not.toContain(SECRET);
  expect(html).not.toContain('Kerning');
  expect(html).not.toContain('Ada Lovelace');
  expect(html).not.toContain('cdn.example');
  expect(html).not.toMatch(/__CT_[A-Z_]+__/);
  expect(html).not.toContain('class="thread-page__text"');

  const tags = [...startTags(html)];
  const quote = tags.find((tag) => tag.name === 'blockquote');
  expect(Object.fromEntries(quote?.attributes.map((a) => [a.name, a.value]) ?? [])).toEqual({
    class: 'text-post-media',
    'data-text-post-permalink': PERMALINK,
    'data-text-post-version': '0',
  });
  // The grid's markup (contract/embed-markup.ts), in a box the loader hands the focus to.
  expect(html).toContain(
    `<div class="embed-card__frame thread-page__embed" tabindex="-1" ${EMBED_CARD_ATTRIBUTE}>`,
  );
  const inside = html.slice(quote?.end ?? 0, html.indexOf('</blockquote>'));
  expect(inside).toContain('<div class="embed-card__placeholder">');
  expect(inside).toContain('>@ada.l</a>');
  expect(inside).toContain(
    '<time class="embed-card__date" datetime="2026-11-20T12:00:00.000Z">Nov 20, 2026</time>',
  );
  expect(inside).toContain('href="/topics/typography">#Typography</a>');
  expect(inside).toMatch(
    new RegExp(`<button type="button" class="button embed-card__show" ${EMBED_SHOW_ATTRIBUTE}>Show post`),
  );
  expect(inside).toContain(`href="${PERMALINK}" rel="noopener noreferrer">View on Threads`);
  expect(html).toContain('<h1 class="thread-page__author" id="thread-author">Post by @ada.l on Threads</h1>');
});

test('title, description and preview tags name the handle and the topic, never the text', () => {
  const html = fill(embedCard(ID, { content: SECRET }));
  expect(html).toContain('<title>Post by @ada.l on Threads · #Typography · Curated Threads</title>');
  expect(html).toContain(
    '<meta name="description" content="A post by @ada.l on #Typography, curated from Threads.">',
  );
  expect(html).toContain(
    '<meta property="og:title" content="Post by @ada.l on Threads · #Typography · Curated Threads">',
  );
  expect(html).toContain(`<meta property="og:url" content="${ORIGIN.origin}/thread/${ID}">`);
  expect(html).toContain(`<meta property="og:image" content="${ORIGIN.origin}/social/thread/${ID}.png">`);
  expect(html).toContain('<meta property="og:type" content="article">');
});

test('related embed cards are named by their permalink with no excerpt; a card keeps its excerpt', () => {
  const html = fill(embedCard(ID));
  const item = (id: string) => {
    const start = html.indexOf(`href="/thread/${id}"`);
    return html.slice(start, html.indexOf('</li>', start));
  };
  expect(item(RELATED_EMBED)).toContain(
    '<span class="thread-related__author">Post by @grace.h on Threads</span><span class="thread-related__excerpt"></span>',
  );
  expect(item(RELATED_CARD)).toContain('A consenting author keeps the excerpt');
});

test('a /t/ permalink names no one; a card without one has a placeholder and nothing to embed', () => {
  const short = fill(embedCard(ID, { permalink: 'https://www.threads.com/t/C0de1', author: 'Threads post' }));
  expect(short).toContain('<h1 class="thread-page__author" id="thread-author">Post on Threads</h1>');
  expect(short).toContain('data-text-post-permalink="https://www.threads.com/t/C0de1"');
  // Without a permalink there is nothing to embed: the heading alone, no button that could do nothing.
  const none = fill(embedCard(ID, { permalink: undefined }));
  expect(none).not.toContain('<blockquote');
  expect(none).not.toContain(EMBED_SHOW_ATTRIBUTE);
  expect(none).toContain('<h1 class="thread-page__author" id="thread-author">Post on Threads</h1>');
});

test("the embed page's CSP is the template's: the page adds no inline script or style", () => {
  const csp = pageCsp(built, { secure: false });
  expect(pageCsp(fill(embedCard(ID)), { secure: false })).toBe(csp);
});
