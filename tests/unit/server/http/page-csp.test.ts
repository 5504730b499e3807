import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { pageCsp } from '../../../../server/http/page-csp.ts';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('pageCsp', () => {
  const html =
    '<html><head><style>body{color:red}</style><script type="module" src="/_astro/a.js"></script>' +
    '<script>window.x=1</script></head><body><script type="module">import "/b.js"</script></body></html>';

  test('allows exactly the inline scripts and styles of the page, by hash', () => {
    const csp = pageCsp(html, { secure: false });
    expect(directive(csp, 'script-src')).toBe(
      `script-src 'self' ${sha('window.x=1')} ${sha('import "/b.js"')}`,
    );
    expect(directive(csp, 'style-src')).toBe(`style-src 'self' ${sha('body{color:red}')}`);
    expect(csp).not.toContain('unsafe-inline');
  });

  test("member text in an attribute neither adds a hash nor hides the page's own script", () => {
    const page = (bio: string) =>
      `<head><meta name="description" content="${bio}"><script>window.x=1</script></head>` +
      `<body><astro-island props="{&quot;bio&quot;:[0,&quot;${bio}&quot;]}"></astro-island></body>`;
    const plain = pageCsp(page('Grids and type'), { secure: false });
    for (const bio of [
      '<script>',
      '</script><script>evil()</script>',
      '<style>*{display:none}</style>',
      "<script src='x'><!--",
      '<!-- <script>',
    ]) {
      expect(pageCsp(page(bio), { secure: false }), bio).toBe(plain);
    }
  });

  test('a script with src in any case or quoting is not inline; comments hide what they hold', () => {
    const csp = pageCsp(
      `<SCRIPT type=module SRC=/a.js></SCRIPT><!-- <script>old()</script> --><script data-src="x">y()</script >`,
      { secure: false },
    );
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${sha('y()')}`);
  });

  test('always forbids framing, plugins and base-tag hijacking', () => {
    const csp = pageCsp('<p>no scripts</p>', { secure: false });
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
  });

  test('upgrades insecure requests only on https', () => {
    expect(pageCsp('', { secure: true })).toContain('upgrade-insecure-requests');
    expect(pageCsp('', { secure: false })).not.toContain('upgrade-insecure-requests');
  });

  test('lets the pages connect to the API origin (API_BASE_URL) and nowhere else', () => {
    expect(directive(pageCsp('', { secure: false }), 'connect-src')).toBe("connect-src 'self'");
    expect(directive(pageCsp('', { secure: true, apiOrigin: undefined }), 'connect-src')).toBe(
      "connect-src 'self'",
    );
    const csp = pageCsp(html, { secure: true, apiOrigin: 'https://api.curated.example' });
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://api.curated.example");
    // Pictures come from the API's stable address (decision 025), which may redirect to its own
    // origin (the simulator's media); an http API origin is not covered by https:.
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: https: https://api.curated.example");
    // Only connect-src and img-src change: scripts, forms and the rest stay on the pages' own origin.
    expect(csp.replaceAll(' https://api.curated.example', '')).toBe(pageCsp(html, { secure: true }));
    // A stray trailing slash or path is reduced to the origin, which is what CSP compares.
    expect(
      directive(pageCsp('', { secure: false, apiOrigin: 'http://127.0.0.1:4607/' }), 'connect-src'),
    ).toBe("connect-src 'self' http://127.0.0.1:4607");
    expect(directive(pageCsp('', { secure: false, apiOrigin: 'http://127.0.0.1:4607/' }), 'img-src')).toBe(
      "img-src 'self' data: https: http://127.0.0.1:4607",
    );
  });
});
