import { expect, test } from 'vitest';
import {
  fillSlots,
  HEAD_SLOTS,
  parseThreadTemplate,
} from '../../../../../server/publisher/serve/thread-template.ts';

const HEAD = `<link rel="canonical" href="https://x.test/thread/template/"><meta property="og:type" content="website"><meta property="og:url" content="https://x.test/thread/template/"><meta property="og:image" content="https://x.test/social.png"><meta property="og:image:alt" content="Site">`;
const PARTS = ['image', 'topic', 'related', 'related-item']
  .map((name) => `<template data-ct-part="${name}"><i>${name}</i></template>`)
  .join('');

test('the template gives its parts and its per-thread head values as placeholders', () => {
  const { page, parts } = parseThreadTemplate(`<head>${HEAD}</head><main>__CT_TEXT__</main>${PARTS}`);
  expect(parts.image).toBe('<i>image</i>');
  expect(parts['related-item']).toBe('<i>related-item</i>');
  expect(page).not.toContain('<template');
  expect(page).toContain(`<link rel="canonical" href="${HEAD_SLOTS.canonical}">`);
  expect(page).toContain(`<meta property="og:image" content="${HEAD_SLOTS.ogImage}">`);
  expect(page).not.toContain('x.test');
});

test('a template lacking a part or a head tag, or holding one twice, is refused', () => {
  expect(() => parseThreadTemplate(`<head>${HEAD}</head>`)).toThrow(/part "image"/);
  expect(() => parseThreadTemplate(`<head>${HEAD}${HEAD}</head>${PARTS}`)).toThrow(/canonical/);
  const noImage = HEAD.replace(/<meta property="og:image" [^>]*>/, '');
  expect(() => parseThreadTemplate(`<head>${noImage}</head>${PARTS}`)).toThrow(/og:image/);
});

test('filling is one pass: a value that reads like a placeholder is not filled again', () => {
  expect(fillSlots('<p>__CT_TEXT__</p><b>__CT_AUTHOR__</b>', { __CT_TEXT__: '__CT_AUTHOR__' })).toBe(
    '<p>__CT_AUTHOR__</p><b></b>',
  );
});
