// @vitest-environment happy-dom
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test, vi } from 'vitest';
import { CARD_IMAGE_SIZE } from '../../../../../contract/constants.ts';
import type { ThreadCard } from '../../../../../contract/thread-card.ts';
import ThreadCardView from '../../../../../src/components/react/ThreadCardView.tsx';

const base: ThreadCard = {
  id: 't1',
  type: 'image',
  author: 'Maren Holt',
  handle: '@maren.makes',
  avatar: '/sample/avatars/maren-makes.svg',
  content: 'Spacing scales <b>beat</b> ad-hoc margins.',
  image: '/sample/images/design-01.webp',
  likes: 1249,
  replies: 1,
};

function render(card: ThreadCard, eager = false, priority = false): Document {
  return new DOMParser().parseFromString(
    renderToStaticMarkup(<ThreadCardView card={card} eager={eager} priority={priority} />),
    'text/html',
  );
}

describe('ThreadCardView', () => {
  test('shows author, handle, text and counts; user text stays text', () => {
    const doc = render(base);
    expect(doc.querySelector('h2')?.textContent).toBe('Maren Holt');
    // The name leads to the author's profile on Threads.
    expect(doc.querySelector('h2 a')?.getAttribute('href')).toBe('https://www.threads.com/@maren.makes');
    expect(doc.querySelector('h2 a')?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(doc.querySelector('.thread-card__handle')?.textContent).toBe('@maren.makes');
    expect(doc.querySelector('.thread-card__content')?.textContent).toBe(
      'Spacing scales <b>beat</b> ad-hoc margins.',
    );
    expect(doc.querySelector('b')).toBeNull();
    expect(doc.querySelector('.thread-card__meta')?.textContent).toBe('1.2k likes1 replyIs this your post?');
  });

  test('the image has its size set (no layout shift) and loads lazily unless eager', () => {
    const lazy = render(base).querySelector<HTMLImageElement>('.thread-card__image');
    expect(lazy?.getAttribute('width')).toBe(String(CARD_IMAGE_SIZE.width));
    expect(lazy?.getAttribute('height')).toBe(String(CARD_IMAGE_SIZE.height));
    expect(lazy?.getAttribute('loading')).toBe('lazy');
    expect(lazy?.getAttribute('alt')).toContain('Maren Holt');
    expect(render(base, true).querySelector('.thread-card__image')?.getAttribute('loading')).toBe('eager');
    expect(lazy?.getAttribute('fetchpriority')).toBe('auto');
    expect(render(base, true, true).querySelector('.thread-card__image')?.getAttribute('fetchpriority')).toBe(
      'high',
    );
  });

  test('unknown counts and a missing image are left out, not shown as zero', () => {
    const doc = render({ ...base, type: 'text', image: null, likes: null, replies: null });
    expect(doc.querySelector('.thread-card__image')).toBeNull();
    // The footer stays for the author's link and the gem button's reserved slot.
    expect(doc.querySelector('.thread-card__meta')?.textContent).toBe('Is this your post?');
    expect(doc.body.textContent).not.toMatch(/likes|replies/);
  });

  test("the pre-rendered card reserves the gem button's slot but shows no button", () => {
    const doc = render(base);
    expect(doc.querySelector('.thread-card__meta > .gem-slot')).not.toBeNull();
    expect(doc.querySelector('button')).toBeNull();
  });

  test('the post link, the topic link and the pre-rendered date', () => {
    const doc = render({
      ...base,
      timestamp: '2026-11-21T08:11:18.306Z',
      permalink: 'https://www.threads.com/@maren.makes/post/ABC123',
      topic_tag: 'Design Systems',
    });
    const link = doc.querySelector<HTMLAnchorElement>('a.thread-card__link');
    expect(link?.getAttribute('href')).toBe('https://www.threads.com/@maren.makes/post/ABC123');
    expect(link?.textContent).toBe('View on Threads');
    expect(doc.querySelector('a.thread-card__topic')?.getAttribute('href')).toBe('/topics/design-systems');
    expect(doc.querySelector('a.thread-card__topic')?.textContent).toBe('#Design Systems');
    const time = doc.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe('2026-11-21T08:11:18.306Z');
    // Relative words would be stale by the time the HTML is read: the build writes the date.
    expect(time?.textContent).toBe('Nov 21, 2026');
  });

  test("every card links to 'Is this your post?' (decision 028)", () => {
    const link = render(base).querySelector<HTMLAnchorElement>('a.thread-card__yours');
    expect(link?.getAttribute('href')).toBe('/your-posts');
    expect(link?.textContent).toBe('Is this your post?');
  });

  test('a name that only repeats the handle is shown once', () => {
    const doc = render({ ...base, author: 'maren.makes', handle: '@maren.makes' });
    expect(doc.querySelector('h2')?.textContent).toBe('@maren.makes');
    expect(doc.querySelector('.thread-card__handle')).toBeNull();
    expect(render(base).querySelector('.thread-card__handle')?.textContent).toBe('@maren.makes');
  });
});

describe('ThreadImage', () => {
  async function mounted(loaded: boolean) {
    const { act } = await import('react');
    const { createRoot } = await import('react-dom/client');
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    // happy-dom loads no images: say whether this one is still loading or has finished (broken).
    const complete = vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(loaded);
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    await act(async () => root.render(<ThreadCardView card={{ ...base, image: '/api/media/gone' }} eager />));
    return {
      host,
      act,
      done: async () => {
        await act(async () => root.unmount());
        host.remove();
        complete.mockRestore();
      },
    };
  }

  test('a picture that fails to load is taken out, not shown broken (decision 025)', async () => {
    const { host, act, done } = await mounted(false);
    const image = host.querySelector('img.thread-card__image');
    expect(image).not.toBeNull();
    await act(async () => image?.dispatchEvent(new Event('error')));
    expect(host.querySelector('img.thread-card__image')).toBeNull();
    // The rest of the card stays.
    expect(host.querySelector('.thread-card__content')?.textContent).toBe(base.content);
    await done();
  });

  test('one that failed before the island hydrated is taken out too', async () => {
    const { host, done } = await mounted(true);
    expect(host.querySelector('img.thread-card__image')).toBeNull();
    expect(host.querySelector('.thread-card__content')?.textContent).toBe(base.content);
    await done();
  });
});
