import { describe, expect, test } from 'vitest';
import { escapeAttributeBrackets, startTags } from '../../../../server/http/html-tags.ts';

const names = (html: string) => [...startTags(html)].map((tag) => tag.name);

describe('startTags', () => {
  test('finds elements, not look-alikes in attribute values, comments or raw text', () => {
    const html =
      '<!doctype html><html><head><meta content="a <script> b" name=x>' +
      '<!-- <style> --><style>p>a{color:red}</style><script>if (a<b) "</scrip"</script></head>' +
      "<body class='c > d'><p>1 < 2</p></body></html>";
    expect(names(html)).toEqual(['html', 'head', 'meta', 'style', 'script', 'body', 'p']);
    const [, , meta, style, script] = [...startTags(html)];
    expect(meta?.attributes.map(({ name, value }) => [name, value])).toEqual([
      ['content', 'a <script> b'],
      ['name', 'x'],
    ]);
    expect(style?.text).toBe('p>a{color:red}');
    expect(script?.text).toBe('if (a<b) "</scrip"');
  });

  test('short comments end where a browser ends them; only HTML whitespace separates names', () => {
    expect(names('<!--><script>a()</script><!---><style>p{}</style>')).toEqual(['script', 'style']);
    // U+00A0 is part of the name to a browser: `</script\u00a0` does not end the script.
    const [script] = [...startTags('<script>x("</script\u00a0")</script>')];
    expect(script?.text).toBe('x("</script\u00a0")');
  });

  test('an unclosed script runs to the end of the page, as in a browser', () => {
    expect([...startTags('<p><script>never closed <b>')].map((tag) => [tag.name, tag.text])).toEqual([
      ['p', null],
      ['script', 'never closed <b>'],
    ]);
  });
});

describe('escapeAttributeBrackets', () => {
  test('writes < and > in attribute values as entities and leaves everything else as it was', () => {
    const html =
      '<meta name="description" content="</script><b>bio</b>"><p title=\'a>b\'>x < y > z</p>' +
      '<script>if (a<b) c()</script>';
    expect(escapeAttributeBrackets(html)).toBe(
      '<meta name="description" content="&lt;/script&gt;&lt;b&gt;bio&lt;/b&gt;"><p title=\'a&gt;b\'>x < y > z</p>' +
        '<script>if (a<b) c()</script>',
    );
  });

  test('a page without brackets in its attributes is returned as it is', () => {
    const html = '<a href="/x?a=1&amp;b=2">go</a>';
    expect(escapeAttributeBrackets(html)).toBe(html);
  });
});
