import { describe, expect, test } from 'vitest';
import { ThreadsApiError, type ThreadsErrorKind } from '../../../../server/threads/gateway.ts';
import { backoffDelay, errorKind, withRetry } from '../../../../server/threads/graph-errors.ts';

const graph = (code: number, message = 'Something', type = 'OAuthException') => ({
  error: { message, type, code, fbtrace_id: 'AbC' },
});

describe('errorKind (threads-api.md sections 7 and 10, errors)', () => {
  test.each([
    [400, graph(4, '(#4) Application request limit reached'), 'throttled'],
    [400, graph(17, '(#17) User request limit reached'), 'throttled'],
    [400, graph(32, '(#32) Page request limit reached'), 'throttled'],
    [400, graph(613, '(#613) Calls to this api have exceeded the rate limit.'), 'throttled'],
    [429, {}, 'throttled'],
    [500, graph(1, 'An unknown error occurred'), 'unavailable'],
    [500, graph(2, 'An unexpected error has occurred. Please retry your request later.'), 'unavailable'],
    [400, graph(2, 'Please retry your request later.'), 'unavailable'],
    [503, {}, 'unavailable'],
    // Graph sends code 1 for a wrong client secret too: a refusal, not a blip to retry.
    [400, graph(1, 'Error validating client secret.'), 'rejected'],
    [400, graph(190, 'Error validating access token: Session has expired.'), 'invalid_token'],
    [400, graph(100, 'Error validating access token: the session is invalid.'), 'invalid_token'],
    // Refreshing a token too early names the access token but does not revoke it.
    [400, graph(100, 'The access token can be refreshed once it is 24 hours old.'), 'rejected'],
    [403, graph(10, '(#10) Application does not have permission for this action'), 'missing_permission'],
    [400, graph(200, 'Permissions error'), 'missing_permission'],
    [400, graph(24, 'The requested resource does not exist'), 'rejected'],
  ] as const)('HTTP %i %o is %s', (status, body, kind) => {
    expect(errorKind(status, body)).toBe(kind);
  });
});

describe('backoff', () => {
  test('doubles from the base, each wait a random point in the upper half of its step', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, 1000, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, 1000, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(2, 1000, () => 0.5)).toBe(1500);
    for (let i = 0; i < 50; i++) {
      const wait = backoffDelay(3, 100);
      expect(wait).toBeGreaterThanOrEqual(200);
      expect(wait).toBeLessThanOrEqual(400);
    }
  });

  const failing = (kinds: ThreadsErrorKind[]) => {
    let calls = 0;
    const attempt = async () => {
      const kind = kinds[calls++];
      if (kind) throw new ThreadsApiError(`failure ${calls}`, kind, 400);
      return `answer after ${calls}`;
    };
    return { attempt, calls: () => calls };
  };

  test('a throttled or unavailable call is tried again after each wait, up to the attempts', async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    const recovered = failing(['throttled', 'unavailable']);
    expect(await withRetry(recovered.attempt, { attempts: 3, baseDelayMs: 100 }, wait)).toBe(
      'answer after 3',
    );
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeLessThanOrEqual(200);

    // After the last attempt the error keeps its kind.
    const exhausted = failing(['throttled', 'throttled', 'throttled', 'throttled']);
    await expect(withRetry(exhausted.attempt, { attempts: 3, baseDelayMs: 1 }, wait)).rejects.toMatchObject({
      kind: 'throttled',
      message: 'failure 3',
    });
    expect(exhausted.calls()).toBe(3);
  });

  test.each(['invalid_token', 'missing_permission', 'rejected'] as const)(
    'a %s answer is never tried again',
    async (kind) => {
      const refused = failing([kind, kind]);
      await expect(
        withRetry(refused.attempt, { attempts: 3, baseDelayMs: 1 }, async () => {}),
      ).rejects.toMatchObject({ kind });
      expect(refused.calls()).toBe(1);
    },
  );

  test('an error that is not from Threads is not retried', async () => {
    let calls = 0;
    const attempt = async () => {
      calls++;
      throw new TypeError('a bug');
    };
    await expect(withRetry(attempt, { attempts: 3, baseDelayMs: 1 }, async () => {})).rejects.toThrow(
      'a bug',
    );
    expect(calls).toBe(1);
  });
});
