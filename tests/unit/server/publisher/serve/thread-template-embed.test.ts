import { expect, test } from 'vitest';
import { THREAD_SLOTS as S } from '../../../../../contract/thread-page.ts';
import {
  EMBED_ARTICLE_SLOT,
  parseThreadTemplate,
} from '../../../../../server/publisher/serve/thread-template.ts';

// Decision 070: the page of a post shown through Threads' embed is the template without the post's copy.
const HEAD = `<link rel="canonical" href="https://x.test/t/"><meta property="og:type" content="website"><meta property="og:url" content="https://x.test/t/"><meta property="og:image" content="https://x.test/s.png"><meta property="og:image:alt" content="Site">`;
const PARTS = ['image', 'topic', 'related', 'related-item']
  .map((name) => `<template data-ct-part="${name}"><i>${name}</i></template>`)
  .join('');
const ARTICLE = `<article class="thread-page" aria-labelledby="thread-author"><h1 id="thread-author">${S.author}</h1><p class="thread-page__text">${S.text}</p>${S.imagePart}</article>`;

test("the embed page keeps the article's own tags and nothing it held; the rest of the page is the same", () => {
  const { page, embedPage } = parseThreadTemplate(
    `<head>${HEAD}</head><main>${ARTICLE}${S.relatedPart}</main>${PARTS}`,
  );
  expect(embedPage).toBe(
    page.replace(
      ARTICLE,
      `<article class="thread-page" aria-labelledby="thread-author">${EMBED_ARTICLE_SLOT}</article>`,
    ),
  );
  for (const slot of [S.author, S.text, S.imagePart]) expect(embedPage).not.toContain(slot);
});

test('a template without that article, or with one inside it, gets the slot in place of the text', () => {
  const bare = parseThreadTemplate(`<head>${HEAD}</head><main><p>${S.text}</p></main>${PARTS}`);
  expect(bare.embedPage).toBe(bare.page.replace(S.text, EMBED_ARTICLE_SLOT));
  const nested = parseThreadTemplate(
    `<head>${HEAD}</head><main><article class="thread-page"><article>${S.text}</article></article></main>${PARTS}`,
  );
  expect(nested.embedPage).toBe(nested.page.replace(S.text, EMBED_ARTICLE_SLOT));
});
