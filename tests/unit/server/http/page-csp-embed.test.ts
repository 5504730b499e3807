import { describe, expect, test } from 'vitest';
import { pageCsp } from '../../../../server/http/page-csp.ts';

// Decision 070: a page that names Threads' embed script lets exactly that script's origin run and frame.
const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));
const withMeta = (url: string, body = '') =>
  `<html><head><meta name="threads-embed-script" content="${url}"><script>boot()</script></head><body>${body}</body></html>`;

describe('pageCsp and the embed script', () => {
  test("adds the script's origin to script-src and frame-src, and nothing else changes", () => {
    const plain = pageCsp('<head><script>boot()</script></head>', { secure: true });
    const csp = pageCsp(withMeta('https://www.threads.com/embed.js'), { secure: true });
    expect(directive(csp, 'script-src')).toMatch(/^script-src 'self' https:\/\/www\.threads\.com 'sha256-/);
    expect(directive(csp, 'frame-src')).toBe("frame-src 'self' https://www.threads.com");
    expect(directive(plain, 'frame-src')).toBeUndefined();
    const without = csp
      .replace(" https://www.threads.com '", " '")
      .replace("; frame-src 'self' https://www.threads.com", '');
    expect(without).toBe(plain);
  });

  test("the simulator's stand-in on the API's origin: its origin with the port, never its path", () => {
    const csp = pageCsp(withMeta('http://127.0.0.1:4607/simulated-threads/embed.js?v=1&amp;x=2'), {
      secure: false,
    });
    expect(directive(csp, 'frame-src')).toBe("frame-src 'self' http://127.0.0.1:4607");
    expect(directive(csp, 'script-src')).toContain("'self' http://127.0.0.1:4607 ");
  });

  test('only a real meta tag counts: text, another attribute or a comment add nothing', () => {
    const plain = pageCsp('<head><script>boot()</script></head>', { secure: false });
    const lookalikes = [
      '<p>&lt;meta name="threads-embed-script" content="https://evil.example/x.js"&gt;</p>',
      '<meta name="description" content=\'<meta name="threads-embed-script" content="https://evil.example/x.js">\'>',
      '<!-- <meta name="threads-embed-script" content="https://evil.example/x.js"> -->',
      '<meta property="threads-embed-script" content="https://evil.example/x.js">',
    ];
    for (const body of lookalikes)
      expect(
        pageCsp(`<head><script>boot()</script></head><body>${body}</body>`, { secure: false }),
        body,
      ).toBe(plain);
  });

  test('an address that is not http(s), or would smuggle sources into the header, is ignored', () => {
    const plain = pageCsp('<head><script>boot()</script></head>', { secure: false });
    for (const url of [
      'javascript:alert(1)',
      'data:text/javascript,x',
      'not a url',
      '',
      'https://a;b.example/x.js',
    ])
      expect(pageCsp(withMeta(url), { secure: false }), url).toBe(plain);
  });

  test('the first such tag wins: a second cannot add another origin', () => {
    const html = withMeta('https://www.threads.com/embed.js').replace(
      '</head>',
      '<meta name="threads-embed-script" content="https://other.example/embed.js"></head>',
    );
    const csp = pageCsp(html, { secure: false });
    expect(csp).toContain('https://www.threads.com');
    expect(csp).not.toContain('other.example');
  });
});
