import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts a Threads token with AES-256-GCM, a fresh 96-bit IV and the owner's user id as associated
 * data, so a ciphertext copied onto another user's row does not decrypt.
 */
export function encryptToken(token: string, userId: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId));
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Decrypts what encryptToken wrote; anything else (plaintext included) throws: there is no fallback. */
export function decryptToken(stored: string, userId: string, key: Buffer): string {
  const [version, iv, tag, body, ...rest] = stored.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined || rest.length > 0) {
    throw new Error('The stored Threads token is not in the expected encrypted format.');
  }
  const authTag = Buffer.from(tag, 'base64url');
  // A shortened tag would make forgery cheap: only the full 128-bit tag is accepted.
  if (authTag.length !== 16)
    throw new Error('The stored Threads token is not in the expected encrypted format.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(userId));
  decipher.setAuthTag(authTag);
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
