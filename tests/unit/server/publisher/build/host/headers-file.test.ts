import { describe, expect, test } from 'vitest';
import { STRICT_CSP } from '../../../../../../server/http/security-headers.ts';
import {
  headersFile,
  headersFileWarnings,
} from '../../../../../../server/publisher/build/host/headers-file.ts';
import type { SitePage } from '../../../../../../server/publisher/build/host/site-pages.ts';

const pages: SitePage[] = [
  { file: '404.html', paths: [], csp: "script-src 'self' 'sha256-nf'" },
  { file: 'index.html', paths: ['/'], csp: "script-src 'self' 'sha256-home'" },
  { file: 'privacy/index.html', paths: ['/privacy', '/privacy/'], csp: "script-src 'self' 'sha256-privacy'" },
];

/** The rules of a _headers file: pattern → header lines, in order. */
function parse(file: string): [string, string[]][] {
  const rules: [string, string[]][] = [];
  for (const line of file.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('  ')) rules.at(-1)?.[1].push(line.trim());
    else rules.push([line, []]);
  }
  return rules;
}

describe('headersFile', () => {
  const rules = parse(headersFile(pages, { secure: true }));
  const find = (pattern: string) => rules.find(([p]) => p === pattern)?.[1] ?? [];

  test("/* comes first with the security headers and the union of every page's CSP", () => {
    expect(rules[0]?.[0]).toBe('/*');
    expect(find('/*')).toContain('X-Content-Type-Options: nosniff');
    expect(find('/*')).toContain('Strict-Transport-Security: max-age=31536000; includeSubDomains');
    expect(find('/*')).toContain(
      "Content-Security-Policy: script-src 'self' 'sha256-nf' 'sha256-home' 'sha256-privacy'",
    );
    expect(find('/*').some((line) => line.startsWith('Cache-Control'))).toBe(false);
  });

  test('each page path has its exact CSP and is revalidated; 404.html has no path of its own', () => {
    expect(find('/')).toEqual([
      "Content-Security-Policy: script-src 'self' 'sha256-home'",
      'Cache-Control: no-cache',
    ]);
    expect(find('/privacy')).toEqual(find('/privacy/'));
    expect(find('/privacy')).toContain("Content-Security-Policy: script-src 'self' 'sha256-privacy'");
    expect(rules.some(([pattern]) => pattern.includes('404'))).toBe(false);
  });

  test('hashed assets and search shards are immutable, the search index and the other data revalidated', () => {
    expect(find('/_astro/*')).toEqual(['Cache-Control: public, max-age=31536000, immutable']);
    expect(find('/data/*')).toEqual(['Cache-Control: no-cache', `Content-Security-Policy: ${STRICT_CSP}`]);
    expect(find('/data/search/*')).toEqual(['Cache-Control: public, max-age=31536000, immutable']);
    expect(find('/data/search/index.json')).toEqual(['Cache-Control: no-cache']);
    const order = rules.map(([pattern]) => pattern);
    expect(order.indexOf('/data/search/index.json')).toBeGreaterThan(order.indexOf('/data/search/*'));
  });

  test('no HSTS over http', () => {
    expect(headersFile(pages, { secure: false })).not.toContain('Strict-Transport-Security');
  });
});

test("headersFileWarnings names Cloudflare Pages' limits when a site outgrows them", () => {
  expect(headersFileWarnings(headersFile(pages, { secure: false }))).toEqual([]);
  const many = Array.from({ length: 60 }, (_, i) => ({
    file: `u${i}.html`,
    paths: [`/u${i}`, `/u${i}/`],
    csp: 'x',
  }));
  expect(headersFileWarnings(headersFile(many, { secure: false }))).toEqual([
    expect.stringContaining('_headers has 125 rules; Cloudflare Pages reads at most 100'),
  ]);
  const long = [{ file: 'a.html', paths: ['/a'], csp: `script-src ${"'sha256-x' ".repeat(200)}` }];
  expect(headersFileWarnings(headersFile(long, { secure: false }))[0]).toMatch(
    /characters; Cloudflare Pages allows 2000/,
  );
});
