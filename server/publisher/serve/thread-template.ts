import { THREAD_PARTS, THREAD_SLOTS as S, type ThreadPart } from '../../../contract/thread-page.ts';
import { startTags, type HtmlStartTag } from '../../http/html-tags.ts';

/**
 * The layout's own head tags whose value differs per thread, turned into placeholders when the
 * template is read: the layout writes them from the template's address and the site's picture.
 */
export const HEAD_SLOTS = {
  canonical: '__CT_CANONICAL__',
  ogUrl: '__CT_OG_URL__',
  ogType: '__CT_OG_TYPE__',
  ogImage: '__CT_OG_IMAGE__',
  ogImageAlt: '__CT_OG_IMAGE_ALT__',
} as const;

const HEAD_TAGS: readonly { tag: string; key: string; is: string; value: string; slot: string }[] = [
  { tag: 'link', key: 'rel', is: 'canonical', value: 'href', slot: HEAD_SLOTS.canonical },
  { tag: 'meta', key: 'property', is: 'og:url', value: 'content', slot: HEAD_SLOTS.ogUrl },
  { tag: 'meta', key: 'property', is: 'og:type', value: 'content', slot: HEAD_SLOTS.ogType },
  { tag: 'meta', key: 'property', is: 'og:image', value: 'content', slot: HEAD_SLOTS.ogImage },
  { tag: 'meta', key: 'property', is: 'og:image:alt', value: 'content', slot: HEAD_SLOTS.ogImageAlt },
];

/** Where a page for a post shown through Threads' embed carries its article (thread-embed-html.ts). */
export const EMBED_ARTICLE_SLOT = '__CT_EMBED_ARTICLE__';

/** The template as the server fills it: the page with its parts taken out, and each part. */
export interface ThreadTemplate {
  page: string;
  /**
   * The page for a post shown through Threads' embed (decision 070): the same page with what its
   * `<article class="thread-page">` holds (the post's copy) replaced by EMBED_ARTICLE_SLOT.
   */
  embedPage: string;
  parts: Readonly<Record<ThreadPart, string>>;
}

/** Replaces the values of the layout's per-thread head tags with placeholders; each must be there once. */
function headSlots(html: string): string {
  const ranges: { start: number; end: number; slot: string }[] = [];
  for (const tag of startTags(html)) {
    for (const wanted of HEAD_TAGS) {
      if (tag.name !== wanted.tag) continue;
      const key = tag.attributes.find((attribute) => attribute.name === wanted.key);
      const value = tag.attributes.find((attribute) => attribute.name === wanted.value);
      if (key?.value === wanted.is && value && value.valueStart >= 0)
        ranges.push({ start: value.valueStart, end: value.valueEnd, slot: wanted.slot });
    }
  }
  for (const wanted of HEAD_TAGS)
    if (ranges.filter((range) => range.slot === wanted.slot).length !== 1)
      throw new Error(`The thread template must have one ${wanted.tag} ${wanted.key}="${wanted.is}"`);
  let page = html;
  for (const range of ranges.sort((a, b) => b.start - a.start))
    page = page.slice(0, range.start) + range.slot + page.slice(range.end);
  return page;
}

const hasClass = (tag: HtmlStartTag, name: string) =>
  (tag.attributes.find((attribute) => attribute.name === 'class')?.value ?? '').split(/\s+/).includes(name);

/**
 * The page with the content of the post's article replaced by EMBED_ARTICLE_SLOT (its own tags
 * stay, so the slot never touches another). The template is ours and holds no member text yet, so
 * the first `</article>` after the start tag closes it unless another article opens before. A
 * template without that article (a test's) gets the slot in place of the text's: the page then
 * still carries no copy of the post.
 */
function embedPageOf(page: string): string {
  const tags = [...startTags(page)];
  const article = tags.find((tag) => tag.name === 'article' && hasClass(tag, 'thread-page'));
  const close = article ? page.indexOf('</article>', article.end) : -1;
  const nested = tags.some(
    (tag) => tag.name === 'article' && article && tag.start > article.start && tag.start < close,
  );
  if (!article || close < 0 || nested) return page.replaceAll(S.text, EMBED_ARTICLE_SLOT);
  return page.slice(0, article.end) + EMBED_ARTICLE_SLOT + page.slice(close);
}

/**
 * Reads the built template (decision 046): its per-thread head values become placeholders, and each
 * `<template data-ct-part>` element is taken out as a part. A template lacking any is an error: the
 * build and the server disagree, and no thread page could be right.
 */
export function parseThreadTemplate(html: string): ThreadTemplate {
  let page = headSlots(html);
  const parts = {} as Record<ThreadPart, string>;
  for (const name of THREAD_PARTS) {
    const open = `<template data-ct-part="${name}">`;
    const start = page.indexOf(open);
    const end = start < 0 ? -1 : page.indexOf('</template>', start);
    if (start < 0 || end < 0) throw new Error(`The thread template has no part "${name}"`);
    parts[name] = page.slice(start + open.length, end).trim();
    page = page.slice(0, start) + page.slice(end + '</template>'.length);
  }
  return { page, embedPage: embedPageOf(page), parts };
}

/**
 * Puts each value in place of its placeholder, in one pass: a value is never read again, so text
 * that looks like a placeholder stays text. Values must already be escaped for where they go;
 * a placeholder without a value is left empty.
 */
export function fillSlots(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/__CT_[A-Z_]+__/g, (slot) => values[slot] ?? '');
}
