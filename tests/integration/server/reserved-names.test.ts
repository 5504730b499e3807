import { readdir } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { displayUsernameProblem, RESERVED_USERNAMES, USERNAME_MESSAGES } from '../../../contract/profile.ts';
import { SOCIAL_PREFIX } from '../../../contract/social-image.ts';
import { THREAD_PAGE_PREFIX } from '../../../server/publisher/serve/thread-route.ts';
import { SIMULATED_PREFIX } from '../../../server/threads/settings.ts';
import { TEST_SITE } from '../../site-under-test.ts';

/** Every top-level name a profile URL could collide with: the built site's entries and the server's prefixes. */
async function topLevelNames(): Promise<string[]> {
  // The build's .br/.gz copies sit beside the files they compress: not names of their own.
  const built = (await readdir(TEST_SITE.siteDir)).filter(
    (name) => !name.startsWith('.') && !/\.(br|gz)$/.test(name),
  );
  const names = built.map((name) => name.replace(/\.(html|xml|txt|svg|ico|json|png)$/, ''));
  const served = [SIMULATED_PREFIX, THREAD_PAGE_PREFIX, SOCIAL_PREFIX].map((prefix) =>
    prefix.replace(/\//g, ''),
  );
  return [...new Set([...names, 'api', 'data', ...served])].sort();
}

test('every top-level page, folder and server prefix is a reserved username, in any case', async () => {
  const names = await topLevelNames();
  expect(names).toEqual(
    expect.arrayContaining([
      '_astro',
      '_headers',
      'api',
      'data-deletion',
      'privacy',
      'terms',
      'callback',
      'auth',
    ]),
  );
  const unreserved = names.filter((name) => !RESERVED_USERNAMES.includes(name.toLowerCase()));
  expect(unreserved).toEqual([]);
  for (const name of names.filter((n) => /^[A-Za-z0-9_]{3,30}$/.test(n))) {
    for (const variant of [name, name.toUpperCase(), name[0]?.toUpperCase() + name.slice(1)]) {
      expect(displayUsernameProblem(variant), variant).toBe(USERNAME_MESSAGES.reserved);
    }
  }
});
