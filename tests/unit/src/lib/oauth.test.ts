import { describe, expect, test } from 'vitest';
import { authorizeUrl, createOAuthState } from '../../../../src/lib/oauth.ts';

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

test('authorizeUrl sends client_id, redirect_uri, comma-joined scope, response_type=code and state', () => {
  const url = new URL(
    authorizeUrl(
      {
        client_id: '123',
        redirect_uri: 'https://curated.example/auth/callback',
        auth_base_url: 'https://threads.com',
        mode: 'live',
        scopes: ['threads_basic', 'threads_content_publish'],
      },
      'abc',
    ),
  );
  expect(`${url.origin}${url.pathname}`).toBe('https://threads.com/oauth/authorize');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: '123',
    redirect_uri: 'https://curated.example/auth/callback',
    scope: 'threads_basic,threads_content_publish',
    response_type: 'code',
    state: 'abc',
  });
});
