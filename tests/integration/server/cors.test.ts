import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CORS_ALLOWED_METHODS } from '../../../server/plugins/cors.ts';
import { ORIGIN, startApp } from '../auth/helpers.ts';

// The app plays the API of a split deployment: its PUBLIC_URL (ORIGIN) is where the pages live, and
// it answers on another origin (base), as https://api.example.com would for https://www.example.com.
const OTHER = 'http://evil.example';
/** Where the pages are told the API lives (only their CSP reads it here; the app answers on base). */
const API = 'http://127.0.0.1:4399';
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  ({ app, base } = await startApp({ API_BASE_URL: API }));
});
afterAll(() => app.close());

/** The CORS headers an answer carries, by name. */
function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

function varyTokens(response: Response): string[] {
  return (response.headers.get('vary') ?? '').split(',').map((token) => token.trim().toLowerCase());
}

const preflight = (path: string, origin: string | undefined, method = 'PUT') =>
  fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: {
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type',
      ...(origin ? { origin } : {}),
    },
  });

describe('API answers', () => {
  test("PUBLIC_URL's pages may read them, with credentials; nothing else is exposed", async () => {
    const response = await fetch(`${base}/api/health`, { headers: { origin: ORIGIN } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-credentials': 'true',
    });
    expect(varyTokens(response)).toContain('origin');
  });

  test("an error's {detail} is readable by our pages too", async () => {
    const response = await fetch(`${base}/api/user/me`, { headers: { origin: ORIGIN } });
    expect(response.status).toBe(401);
    expect(await response.json()).toHaveProperty('detail');
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(varyTokens(response)).toContain('origin');
  });

  test.each([
    ['another origin', OTHER],
    ['a sibling origin of the same site', 'http://127.0.0.1:9'],
    ["PUBLIC_URL's origin with a path", `${ORIGIN}/`],
    ['the opaque origin', 'null'],
    ['no Origin', undefined],
  ])('%s gets no CORS headers, and the answer still varies on Origin', async (_name, origin) => {
    const response = await fetch(`${base}/api/health`, { headers: origin ? { origin } : {} });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({});
    expect(varyTokens(response)).toContain('origin');
  });

  test('pages and catalogue files are not API answers: no CORS headers on them', async () => {
    for (const path of ['/', '/data/manifest.json']) {
      const response = await fetch(`${base}${path}`, { headers: { origin: ORIGIN } });
      expect(response.status, path).toBe(200);
      expect(corsHeaders(response), path).toEqual({});
    }
  });

  test("the pages' CSP lets them connect to API_BASE_URL", async () => {
    const csp = (await fetch(`${base}/`)).headers.get('content-security-policy') ?? '';
    expect(csp.split('; ')).toContain(`connect-src 'self' ${API}`);
  });
});

describe('preflight', () => {
  test('from PUBLIC_URL: 204 with the methods, the request headers and a max-age', async () => {
    const response = await preflight('/api/user/profile', ORIGIN);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(corsHeaders(response)).toEqual({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': CORS_ALLOWED_METHODS,
      // Literal values: the pages send JSON bodies (Content-Type) on PUT/POST.
      'access-control-allow-headers': 'Content-Type',
      'access-control-max-age': '7200',
    });
    expect(CORS_ALLOWED_METHODS.split(', ')).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    expect(varyTokens(response)).toContain('origin');
  });

  test('covers every API method the routes use', async () => {
    // HEAD is a CORS-safelisted method: browsers never preflight it.
    const methods = new Set(app.apiRoutes.map((route) => route.method).filter((method) => method !== 'HEAD'));
    for (const method of methods) expect(CORS_ALLOWED_METHODS.split(', ')).toContain(method);
    const response = await preflight('/api/user/gems/some-thread', ORIGIN, 'DELETE');
    expect(response.status).toBe(204);
  });

  test.each([
    ['another origin', OTHER],
    ['a sibling origin of the same site', 'http://127.0.0.1:9'],
    ['no Origin', undefined],
  ])('from %s: 403 with {detail} and no CORS headers', async (_name, origin) => {
    const response = await preflight('/api/auth/callback', origin, 'POST');
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      detail: 'Only the Curated Threads site may call this API from another origin.',
    });
    expect(corsHeaders(response)).toEqual({});
    expect(varyTokens(response)).toContain('origin');
  });

  test('an OPTIONS that is not a preflight, or not for the API, is left alone (404 as before)', async () => {
    const plain = await fetch(`${base}/api/health`, { method: 'OPTIONS', headers: { origin: ORIGIN } });
    expect(plain.status).toBe(404);
    const page = await fetch(`${base}/`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(page.status).toBe(404);
    expect(corsHeaders(page)).toEqual({});
  });
});
