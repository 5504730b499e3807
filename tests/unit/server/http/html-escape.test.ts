import { expect, test } from 'vitest';
import { escapeHtml, escapeUrl } from '../../../../server/http/html-escape.ts';

test('escapeHtml writes every character that could end a text or a quoted attribute as an entity', () => {
  expect(escapeHtml(`<b a="1" b='2'>&amp;</b>`)).toBe(
    '&lt;b a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;amp;&lt;/b&gt;',
  );
});

test('escapeUrl keeps http(s) addresses and site paths, and refuses every other scheme', () => {
  expect(escapeUrl('https://www.threads.com/@a/post/X?x=1&y="2"')).toBe(
    'https://www.threads.com/@a/post/X?x=1&amp;y=%222%22',
  );
  expect(escapeUrl('/topics/ux-design')).toBe('/topics/ux-design');
  for (const bad of [
    'javascript:alert(1)',
    'data:text/html,x',
    '//evil.example/x',
    '/\\evil.example',
    'not a url',
  ])
    expect(escapeUrl(bad), bad).toBeNull();
});
