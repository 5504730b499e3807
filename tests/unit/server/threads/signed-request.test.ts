import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  signRequest,
  SignedRequestError,
  verifySignedRequest,
} from '../../../../server/threads/signed-request.ts';

const SECRET = 'app-secret-0123456789abcdef';
const payload = { algorithm: 'HMAC-SHA256', user_id: '17841400000000077', issued_at: 1_795_000_000 };

describe('verifySignedRequest', () => {
  test('accepts a request signed with the app secret, padded or not, and reads the user id as a string', () => {
    const signed = signRequest(payload, SECRET);
    expect(verifySignedRequest(signed, SECRET)).toEqual({
      userId: '17841400000000077',
      issuedAt: 1_795_000_000,
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
    ['no user id', signRequest({ algorithm: 'HMAC-SHA256' }, SECRET), 'The payload has no user id.'],
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
