import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  signRequest,
  SignedRequestError,
  verifySignedRequest,
} from '../../../../server/threads/signed-request.ts';

const SECRET = 'app-secret-0123456789abcdef';
const payload = {
  algorithm: 'HMAC-SHA256',
  user_id: '17841400000000077',
  issued_at: Math.floor(Date.now() / 1000),
};

describe('verifySignedRequest', () => {
  test('accepts a request signed with the app secret, padded or not, and reads the user id as a string', () => {
    const signed = signRequest(payload, SECRET);
    expect(verifySignedRequest(signed, SECRET)).toEqual({
      userId: '17841400000000077',
      issuedAt: payload.issued_at,
    });
    const [signature, body] = signed.split('.') as [string, string];
    const padded = `${signature}${'='.repeat((4 - (signature.length % 4)) % 4)}.${body}`;
    expect(verifySignedRequest(padded, SECRET).userId).toBe('17841400000000077');
  });

  test.each([
    ['another secret', signRequest(payload, 'wrong-secret'), 'The signature does not match.'],
    [
      'another algorithm',
      signRequest({ ...payload, algorithm: 'HMAC-SHA1' }, SECRET),
      'The algorithm is not HMAC-SHA256.',
    ],
    ['no algorithm', signRequest({ user_id: '1' }, SECRET), 'The algorithm is not HMAC-SHA256.'],
    [
      'no user id',
      signRequest({ algorithm: 'HMAC-SHA256', issued_at: payload.issued_at }, SECRET),
      'The payload has no user id.',
    ],
    [
      'a user id that is not digits',
      signRequest({ ...payload, user_id: '12a' }, SECRET),
      'The payload has no user id.',
    ],
    [
      'no signature',
      `.${Buffer.from('{}').toString('base64url')}`,
      'The signed_request has no signature and payload.',
    ],
    ['garbage', 'not a signed request', 'The signed_request has no signature and payload.'],
    ['bad base64', 'abc$.def', 'The signature is not base64url.'],
    ['oversized', `${'a'.repeat(5000)}.b`, 'The signed_request is too long.'],
  ])('refuses %s', (_name, signed, message) => {
    expect(() => verifySignedRequest(signed, SECRET)).toThrow(new SignedRequestError(message));
  });

  test('a payload that is not JSON is refused even with a valid signature', () => {
    const body = Buffer.from('not json').toString('base64url');
    const signature = createHmac('sha256', SECRET).update(body).digest('base64url');
    expect(() => verifySignedRequest(`${signature}.${body}`, SECRET)).toThrow('The payload is not JSON.');
  });

  test('every single-bit change of a valid request is refused', () => {
    const signed = signRequest(payload, SECRET);
    let refused = 0;
    for (let index = 0; index < signed.length; index++) {
      const code = signed.charCodeAt(index);
      for (const replacement of [code ^ 1, code ^ 2]) {
        const mutated = signed.slice(0, index) + String.fromCharCode(replacement) + signed.slice(index + 1);
        if (mutated === signed) continue;
        let accepted: string | null = null;
        try {
          accepted = verifySignedRequest(mutated, SECRET).userId;
        } catch {
          refused++;
        }
        // A change in base64 padding bits can decode to the same bytes: then the request is the same.
        if (accepted !== null) expect(accepted).toBe(payload.user_id);
      }
    }
    expect(refused).toBeGreaterThan(signed.length);
  });
});

describe('replays', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  const at = (offsetSeconds: number) => Math.floor(now / 1000) + offsetSeconds;
  test.each([
    ['issued a day and a second ago', { issued_at: at(-86_401) }, 'The signed_request is too old.'],
    ['already expired', { issued_at: at(-60), expires: at(-1) }, 'The signed_request has expired.'],
    ['issued ten minutes in the future', { issued_at: at(600) }, 'The signed_request is from the future.'],
  ])('a request %s is refused', (_name, times, message) => {
    const signed = signRequest({ algorithm: 'HMAC-SHA256', user_id: '1', ...times }, SECRET);
    expect(() => verifySignedRequest(signed, SECRET, now)).toThrow(message);
  });

  test.each([
    ['without issued_at', {}],
    ['with only an expiry', { expires: at(3600) }],
    ['with issued_at as text', { issued_at: String(at(-30)) }],
    ['with a fractional issued_at', { issued_at: at(-30) + 0.5 }],
    ['with issued_at zero', { issued_at: 0 }],
  ])('a request %s is refused', (_name, times) => {
    const signed = signRequest({ algorithm: 'HMAC-SHA256', user_id: '1', ...times }, SECRET);
    expect(() => verifySignedRequest(signed, SECRET, now)).toThrow(
      new SignedRequestError('The payload has no issued_at time.'),
    );
  });

  test('a request issued a day ago to the second, or five minutes ahead, is still accepted', () => {
    for (const issuedAt of [at(-86_400), at(300)]) {
      const signed = signRequest({ algorithm: 'HMAC-SHA256', user_id: '1', issued_at: issuedAt }, SECRET);
      expect(verifySignedRequest(signed, SECRET, now).issuedAt).toBe(issuedAt);
    }
  });

  test('a fresh request, with or without an expiry, is accepted', () => {
    for (const times of [{ issued_at: at(-30) }, { issued_at: at(-30), expires: at(3600) }]) {
      const signed = signRequest({ algorithm: 'HMAC-SHA256', user_id: '1', ...times }, SECRET);
      expect(verifySignedRequest(signed, SECRET, now).userId).toBe('1');
    }
  });
});

describe('numeric user ids (decision 068)', () => {
  const rawPayload = (userId: string) =>
    `{"algorithm":"HMAC-SHA256","user_id":${userId},"issued_at":${payload.issued_at}}`;
  const read = (userId: string) =>
    verifySignedRequest(signRequest(rawPayload(userId), SECRET), SECRET).userId;

  test.each([
    ['a small id', '42'],
    ['2^53 + 1, which JSON.parse reads as 2^53', '9007199254740993'],
    ['a 17-digit id', '17841400000000077'],
    ['an 18-digit id', '178414000000000779'],
    ['a 19-digit id', '9223372036854775807'],
    ['a 20-digit id', '18446744073709551615'],
  ])('%s written as a JSON number keeps every digit', (_name, digits) => {
    expect(read(digits)).toBe(digits);
    expect(read(`"${digits}"`)).toBe(digits);
  });

  test('the long ids would round as doubles: the digits come from the raw text, not the number', () => {
    for (const digits of ['9007199254740993', '17841400000000077', '18446744073709551615'])
      expect(String(JSON.parse(rawPayload(digits)).user_id)).not.toBe(digits);
  });

  test.each([['-1'], ['1.5'], ['1e3'], ['123456789012345678901'], ['0.0']])(
    'the number %s is refused',
    (userId) => {
      expect(() => read(userId)).toThrow(
        new SignedRequestError('The user id must be a string or a whole number of up to 20 digits.'),
      );
    },
  );

  test('only the top-level user_id is read: a nested numeric one changes nothing', () => {
    const text = `{"algorithm":"HMAC-SHA256","user":{"user_id":5},"user_id":"7","issued_at":${payload.issued_at}}`;
    expect(verifySignedRequest(signRequest(text, SECRET), SECRET).userId).toBe('7');
  });
});
