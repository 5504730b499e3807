import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../../server/config.ts';
import { threadsSettings } from '../../../../server/threads/settings.ts';
import { siteBuildOptionsFor } from '../../../../server/publisher/build/build-site.ts';

const PAGES = 'https://www.curated.example';

/** The one-line problem loadConfig reports for API_BASE_URL=value, or null when it is accepted. */
function problem(value: string, publicUrl = PAGES): string | null {
  try {
    loadConfig({ PUBLIC_URL: publicUrl, API_BASE_URL: value });
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('API_BASE_URL', () => {
  test('unset: the pages call their own origin, exactly as before', () => {
    const config = loadConfig({ PUBLIC_URL: PAGES });
    expect(config.apiBaseUrl).toBeUndefined();
    expect(siteBuildOptionsFor(config).apiBaseUrl).toBeUndefined();
    expect(threadsSettings(config).redirectUri).toBe(`${PAGES}/auth/callback`);
  });

  test('an origin, with or without its trailing slash, is kept as the bare origin', () => {
    for (const value of [
      'https://api.curated.example',
      'https://api.curated.example/',
      ' https://API.curated.example',
    ]) {
      expect(loadConfig({ PUBLIC_URL: PAGES, API_BASE_URL: value }).apiBaseUrl).toBe(
        'https://api.curated.example',
      );
    }
    expect(
      loadConfig({ PUBLIC_URL: PAGES, API_BASE_URL: 'https://api.curated.example:8443' }).apiBaseUrl,
    ).toBe('https://api.curated.example:8443');
  });

  test('reaches the site build; the sign-in callback stays on the pages, the simulated provider moves to the API', () => {
    const config = loadConfig({ PUBLIC_URL: PAGES, API_BASE_URL: 'https://api.curated.example' });
    expect(siteBuildOptionsFor(config).apiBaseUrl).toBe('https://api.curated.example');
    const settings = threadsSettings(config);
    expect(settings.redirectUri).toBe(`${PAGES}/auth/callback`);
    expect(settings.authBaseUrl).toBe('https://api.curated.example/simulated-threads');
  });

  test.each([
    ['https://api.curated.example/v1', 'must be an origin without a path'],
    ['https://api.curated.example/api', 'must be an origin without a path'],
    ['https://api.curated.example/?x=1', 'must not have a query (?) or a fragment (#)'],
    ['https://api.curated.example/?', 'must not have a query (?) or a fragment (#)'],
    ['https://api.curated.example#top', 'must not have a query (?) or a fragment (#)'],
    ['ftp://api.curated.example', 'must be an http(s) origin'],
    ['api.curated.example', 'must be an absolute http(s) origin'],
    ['http://api.curated.example', "must use PUBLIC_URL's scheme (https)"],
  ])('refuses %s with one readable line', (value, reason) => {
    const message = problem(value);
    expect(message).toContain(`\n  API_BASE_URL: ${reason}`);
    expect(message?.split('\n')).toHaveLength(2);
  });

  test('credentials are refused and never echoed back', () => {
    const message = problem('https://deploy:hunter2@api.curated.example');
    expect(message).toBe('Invalid configuration:\n  API_BASE_URL: must not carry a user name or password');
    expect(message).not.toContain('hunter2');
  });

  test('http pages may call an http API on another port of the same host (the local split)', () => {
    const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:4606', API_BASE_URL: 'http://127.0.0.1:4607' });
    expect(config.apiBaseUrl).toBe('http://127.0.0.1:4607');
    expect(problem('https://127.0.0.1:4607', 'http://127.0.0.1:4606')).toContain(
      "PUBLIC_URL's scheme (http)",
    );
  });
});
