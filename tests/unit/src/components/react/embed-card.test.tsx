// @vitest-environment happy-dom
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type { ThreadCard } from '../../../../../contract/thread-card.ts';
import { EMBED_QUOTE_CLASS } from '../../../../../contract/embed-names.ts';
import { THREADS_EMBED_SCRIPT_URL } from '../../../../../contract/threads-embed.ts';
import ThreadCardView from '../../../../../src/components/react/ThreadCardView.tsx';

const PERMALINK = 'https://www.threads.com/@maren.makes/post/ABC123';

// As the export writes an embed card (decision 070): no copy, the author the permalink's handle.
const embed: ThreadCard = {
  id: '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d',
  type: 'text',
  author: 'maren.makes',
  handle: '@maren.makes',
  avatar: '/sample/avatars/maren-makes.svg',
  content: '',
  image: null,
  likes: null,
  replies: null,
  timestamp: '2026-11-21T08:11:18.306Z',
  permalink: PERMALINK,
  topic_tag: 'Design Systems',
  display: 'embed',
};

function render(card: ThreadCard): Document {
  return new DOMParser().parseFromString(
    renderToStaticMarkup(<ThreadCardView card={card} eager={false} />),
    'text/html',
  );
}

describe('EmbedCard', () => {
  test("holds Meta's blockquote for the permalink, and no copy of the post", () => {
    const doc = render(embed);
    const quote = doc.querySelector('blockquote');
    expect(quote?.getAttribute('class')).toBe(EMBED_QUOTE_CLASS);
    expect(quote?.getAttribute('data-text-post-permalink')).toBe(PERMALINK);
    expect(quote?.getAttribute('data-text-post-version')).toBe('0');
    // Where a card carries the post's words, its picture and its counts, an embed carries none.
    expect(doc.querySelector('.thread-card__content, .thread-card__image, img')).toBeNull();
    expect(doc.body.textContent).not.toMatch(/likes|replies/);
    // The page never names Meta's script: the layout's meta does, and threads-embed.ts loads it.
    expect(doc.querySelector('script')).toBeNull();
    expect(doc.body.innerHTML).not.toContain(THREADS_EMBED_SCRIPT_URL);
  });

  test("the placeholder: who from the permalink, the topic, the date, 'Show post' and 'View on Threads'", () => {
    const doc = render(embed);
    const placeholder = doc.querySelector('blockquote .embed-card__placeholder');
    expect(placeholder?.querySelector('.embed-card__name')?.textContent).toBe('@maren.makes on Threads');
    expect(placeholder?.querySelector('.embed-card__name a')?.getAttribute('href')).toBe(
      'https://www.threads.com/@maren.makes',
    );
    expect(placeholder?.querySelector('.embed-card__avatar')?.getAttribute('aria-hidden')).toBe('true');
    expect(placeholder?.querySelector('a.embed-card__topic')?.getAttribute('href')).toBe(
      '/topics/design-systems',
    );
    expect(placeholder?.querySelector('a.embed-card__topic')?.textContent).toBe('#Design Systems');
    const time = placeholder?.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe(embed.timestamp);
    expect(time?.textContent).toBe('Nov 21, 2026');
    const button = placeholder?.querySelector('button[data-embed-show]');
    expect(button?.getAttribute('type')).toBe('button');
    expect(button?.textContent).toBe('Show post: Post by @maren.makes on Threads');
    const link = placeholder?.querySelector('a.embed-card__link');
    expect(link?.getAttribute('href')).toBe(PERMALINK);
    expect(link?.textContent).toBe('View on Threads: Post by @maren.makes on Threads');
  });

  test("outside the embed what is ours: the thread's page, 'Is this your post?' and the gem slot", () => {
    const doc = render(embed);
    const card = doc.querySelector('article');
    expect(card?.hasAttribute('data-embed-card')).toBe(true);
    // The card takes the focus when the placeholder that held it is replaced.
    expect(card?.getAttribute('tabindex')).toBe('-1');
    expect(card?.querySelector('h2')?.textContent).toBe('Post by @maren.makes on Threads');
    const footer = card?.querySelector(':scope > footer');
    expect(footer?.querySelector('a.thread-card__page')?.getAttribute('href')).toBe(`/thread/${embed.id}`);
    expect(footer?.querySelector('a.thread-card__yours')?.getAttribute('href')).toBe('/your-posts');
    expect(footer?.querySelector('.gem-slot')).not.toBeNull();
    expect(footer?.querySelector('blockquote')).toBeNull();
  });

  test('a /t/ permalink names no one: a post on Threads, with no profile link', () => {
    const doc = render({
      ...embed,
      author: 'Threads post',
      handle: 'Threads post',
      permalink: 'https://www.threads.com/t/XYZ789',
      topic_tag: null,
    });
    expect(doc.querySelector('h2')?.textContent).toBe('Post on Threads');
    expect(doc.querySelector('.embed-card__name')?.textContent).toBe('A post on Threads');
    expect(doc.querySelector('.embed-card__name a')).toBeNull();
    expect(doc.querySelector('.embed-card__topic')).toBeNull();
  });

  test('attribute values and text are escaped', () => {
    const permalink = 'https://www.threads.com/@kit/post/A?x=1&y="2"\'';
    const doc = render({ ...embed, permalink, topic_tag: '<b>Grids</b> & "x"' });
    expect(doc.querySelector('blockquote')?.getAttribute('data-text-post-permalink')).toBe(permalink);
    expect(doc.querySelector('a.embed-card__link')?.getAttribute('href')).toBe(permalink);
    expect(doc.querySelector('.embed-card__topic')?.textContent).toBe('#<b>Grids</b> & "x"');
    expect(doc.querySelector('b')).toBeNull();
  });

  test('a card without display, or with display card, renders as before', () => {
    const card: ThreadCard = { ...embed, content: 'Grids hold.' };
    delete card.display;
    for (const shown of [card, { ...card, display: 'card' as const }]) {
      const doc = render(shown);
      expect(doc.querySelector('blockquote')).toBeNull();
      expect(doc.querySelector('.thread-card__content')?.textContent).toBe('Grids hold.');
    }
  });

  test("hydrating and re-rendering keep what Meta's script put in place of the blockquote", async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const host = document.createElement('div');
    host.innerHTML = renderToString(<ThreadCardView card={embed} eager={false} />);
    document.body.append(host);
    // Meta's script may run before the island hydrates (it hydrates on first use).
    const frame = document.createElement('iframe');
    host.querySelector('blockquote')?.replaceWith(frame);
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(host, <ThreadCardView card={embed} eager={false} />);
    });
    expect(host.querySelector('iframe')).toBe(frame);
    // A new render of the same card (a refreshed list hands over new objects) leaves it too.
    await act(async () => root?.render(<ThreadCardView card={{ ...embed }} eager />));
    expect(host.querySelector('iframe')).toBe(frame);
    expect(host.querySelector('blockquote')).toBeNull();
    await act(async () => root?.unmount());
    host.remove();
  });
});
