import { afterEach, expect, test, vi } from 'vitest';
import { API_BASE_URL, apiUrl } from '../../../../src/lib/api-base.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

test('no base: the path stays relative (the pages call their own origin)', () => {
  // Vitest defines no build-time base, like a build without API_BASE_URL.
  expect(API_BASE_URL).toBe('');
  expect(apiUrl('/api/user/me')).toBe('/api/user/me');
});

test('a build with API_BASE_URL: api() sends every call to that origin, with the session cookie', async () => {
  // What astro.config.mjs defines for a split deployment (the origin, without a trailing slash).
  vi.stubGlobal('__API_BASE_URL__', 'http://127.0.0.1:4607');
  const { api } = await import('../../../../src/lib/api.ts');
  const calls: [string, RequestInit][] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push([url, init]);
    return new Response('{"ok":true}', { status: 200 });
  });
  await api('/api/moderation?cursor=a%2Fb', { method: 'PUT', body: { bio: 'x' } });
  expect(calls).toEqual([
    [
      'http://127.0.0.1:4607/api/moderation?cursor=a%2Fb',
      expect.objectContaining({ method: 'PUT', credentials: 'include', body: '{"bio":"x"}' }),
    ],
  ]);
});
