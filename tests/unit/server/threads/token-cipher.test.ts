import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { decryptToken, encryptToken } from '../../../../server/threads/token-cipher.ts';

const key = randomBytes(32);
const token = 'THAAJ-long-lived-token-0123456789';

describe('Threads token encryption', () => {
  test('round-trips, and never stores the token in clear', () => {
    const stored = encryptToken(token, 'user-a', key);
    expect(stored).not.toContain(token);
    expect(stored.startsWith('v1.')).toBe(true);
    expect(decryptToken(stored, 'user-a', key)).toBe(token);
  });

  test('a fresh IV each time: the same token encrypts differently', () => {
    expect(encryptToken(token, 'user-a', key)).not.toBe(encryptToken(token, 'user-a', key));
  });

  test('bound to its user: a ciphertext moved to another user does not decrypt', () => {
    expect(() => decryptToken(encryptToken(token, 'user-a', key), 'user-b', key)).toThrow();
  });

  test('the wrong key, a flipped bit, or plaintext is refused', () => {
    const stored = encryptToken(token, 'user-a', key);
    expect(() => decryptToken(stored, 'user-a', randomBytes(32))).toThrow();
    const parts = stored.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => decryptToken(parts.join('.'), 'user-a', key)).toThrow();
    expect(() => decryptToken(token, 'user-a', key)).toThrow('not in the expected encrypted format');
    // A shortened authentication tag is refused outright (it would make forgery cheap).
    const [version, iv, tag, rest] = stored.split('.') as [string, string, string, string];
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => decryptToken([version, iv, shortTag, rest].join('.'), 'user-a', key)).toThrow(
      'not in the expected encrypted format',
    );
  });
});
