import { beforeEach, expect, test } from 'vitest';
import { RATE_LIMITS } from '../../../server/plugins/rate-limits.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { api, REDIRECT_URI, signIn, startApp } from './helpers.ts';

// Each test gets its own app, at the real limits (multiplier 1): counted in its memory on PGlite, in the
// database on PostgreSQL (decision 066), emptied before each test.
const realLimits = { RATE_LIMIT_MULTIPLIER: '1' };
beforeEach(async () => resetDatabase(await testDatabase()));

test('sign-in: the 21st callback in a minute from one address is 429 with Retry-After; forged X-Forwarded-For resets nothing', async () => {
  const { app, base } = await startApp(realLimits);
  try {
    const attempt = (forwardedFor?: string) =>
      api(base, '/api/auth/callback', {
        method: 'POST',
        body: { code: 'invalid', redirect_uri: REDIRECT_URI },
        ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
      });
    const statuses = [];
    for (let i = 0; i < RATE_LIMITS.signIn.max; i++) statuses.push((await attempt(`10.0.0.${i}`)).status);
    expect(new Set(statuses)).toEqual(new Set([400]));
    const limited = await attempt('10.9.9.9');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({
      detail: expect.stringMatching(/^Too many requests\. Please try again in /),
    });
    expect(limited.headers.get('x-content-type-options')).toBe('nosniff');
  } finally {
    await app.close();
  }
});

test(
  'invite requests are counted per user: a burst of 10 lets exactly 5 through; another user is unaffected',
  { tags: ['engine'] },
  async () => {
    const { app, base } = await startApp(realLimits);
    try {
      const first = await signIn(base, 'bursty');
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          api(base, '/api/user/request-invite', { method: 'POST', cookie: first }),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(RATE_LIMITS.inviteRequest.max).fill(200), ...Array(5).fill(429)]);
      const second = await signIn(base, 'calm');
      expect((await api(base, '/api/user/request-invite', { method: 'POST', cookie: second })).status).toBe(
        200,
      );
    } finally {
      await app.close();
    }
  },
);
