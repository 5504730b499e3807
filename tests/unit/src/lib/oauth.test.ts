import { describe, expect, test } from 'vitest';
import { authorizeUrl, createOAuthState, returnPath } from '../../../../src/lib/oauth.ts';

describe('createOAuthState', () => {
  test('32 hex characters from 8 random 32-bit values, 16 bits of each', () => {
    const fixed = (values: Uint32Array<ArrayBuffer>) => {
      values.set([0xffffffff, 0x00010000, 0x12345678, 0, 0xabcd0000, 0x0000ffff, 0x80000000, 0x7fff0000]);
      return values;
    };
    expect(createOAuthState(fixed)).toBe('ffff00011234' + '0000' + 'abcd' + '0000' + '8000' + '7fff');
  });

  test('from the real generator: the right shape, and different every time', () => {
    const states = new Set(Array.from({ length: 100 }, () => createOAuthState()));
    expect(states.size).toBe(100);
    for (const state of states) expect(state).toMatch(/^[0-9a-f]{32}$/);
  });
});

const CONFIG = {
  client_id: '123',
  redirect_uri: 'https://curated.example/auth/callback',
  auth_base_url: 'https://threads.com',
  mode: 'live' as const,
  scopes: ['threads_basic'],
  curator_scopes: ['threads_basic', 'threads_keyword_search', 'threads_content_publish'],
};

test("authorizeUrl sends client_id, redirect_uri, a member's scope, response_type=code and state", () => {
  const url = new URL(authorizeUrl(CONFIG, 'abc'));
  expect(`${url.origin}${url.pathname}`).toBe('https://threads.com/oauth/authorize');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: '123',
    redirect_uri: 'https://curated.example/auth/callback',
    scope: 'threads_basic',
    response_type: 'code',
    state: 'abc',
  });
});

test('authorizeUrl for the curation account asks for the curator scopes, comma-joined', () => {
  const url = new URL(authorizeUrl(CONFIG, 'abc', CONFIG.curator_scopes));
  expect(url.searchParams.get('scope')).toBe('threads_basic,threads_keyword_search,threads_content_publish');
});

test('returnPath lets a sign-in come back to home or the dashboard, nowhere else', () => {
  expect(returnPath('/dashboard')).toBe('/dashboard');
  expect(returnPath('/')).toBe('/');
  expect(returnPath(null)).toBe('/');
  expect(returnPath('https://evil.example/')).toBe('/');
  expect(returnPath('//evil.example')).toBe('/');
});
