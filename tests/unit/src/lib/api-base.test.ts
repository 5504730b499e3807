import { afterEach, expect, test, vi } from 'vitest';
import { api } from '../../../../src/lib/api.ts';
import { API_BASE_URL, apiUrl, joinApiUrl } from '../../../../src/lib/api-base.ts';

afterEach(() => vi.unstubAllGlobals());

test('joins a base and an API path with exactly one slash', () => {
  expect(joinApiUrl('https://api.curated.example', '/api/health')).toBe(
    'https://api.curated.example/api/health',
  );
  expect(joinApiUrl('https://api.curated.example/', '/api/health')).toBe(
    'https://api.curated.example/api/health',
  );
  expect(joinApiUrl('https://api.curated.example//', 'api/health')).toBe(
    'https://api.curated.example/api/health',
  );
  expect(joinApiUrl('http://127.0.0.1:4607', '/api/moderation?cursor=a%2Fb')).toBe(
    'http://127.0.0.1:4607/api/moderation?cursor=a%2Fb',
  );
});

test('no base: the path stays relative (the pages call their own origin)', () => {
  expect(joinApiUrl('', '/api/auth/verify')).toBe('/api/auth/verify');
  // Vitest defines no build-time base, like a build without API_BASE_URL.
  expect(API_BASE_URL).toBe('');
  expect(apiUrl('/api/user/me')).toBe('/api/user/me');
});

test('api() sends every call through apiUrl, with the session cookie', async () => {
  const calls: [string, RequestInit][] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push([url, init]);
    return new Response('{"ok":true}', { status: 200 });
  });
  await api('/api/user/profile', { method: 'PUT', body: { bio: 'x' } });
  expect(calls).toEqual([
    [
      '/api/user/profile',
      expect.objectContaining({ method: 'PUT', credentials: 'include', body: '{"bio":"x"}' }),
    ],
  ]);
});
