/**
 * The secrets a backup needs to be useful: stored Threads tokens are sealed with TOKEN_KEY and
 * session ids are kept as hashes keyed by SESSION_SECRET. Generated ones live in DATA_DIR/secrets.json,
 * which goes into the backup; ones set in the environment cannot, and the operator is told so.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';

export const SECRETS_FILE = 'secrets.json';

/** The secrets this configuration reads from the environment (names only, never values). */
export function secretsFromEnvironment(config: Config): string[] {
  return [
    ...(config.secrets.tokenKey ? ['TOKEN_KEY'] : []),
    ...(config.secrets.sessionSecret ? ['SESSION_SECRET'] : []),
  ];
}

/**
 * A short one-way fingerprint of a token key: enough to tell two keys apart, nothing about the key
 * (it is 32 random bytes, so a truncated salted hash cannot be turned back into it).
 */
export function tokenKeyFingerprint(tokenKey: Buffer): string {
  return createHash('sha256')
    .update('curated-threads token key\0')
    .update(tokenKey)
    .digest('hex')
    .slice(0, 16);
}

/** Copies DATA_DIR/secrets.json into the backup (private); false when there is none. */
export async function copySecretsInto(config: Config, folder: string): Promise<boolean> {
  const source = path.join(config.dataDir, SECRETS_FILE);
  const text = await readFile(source, 'utf8').catch(() => null);
  if (text === null) return false;
  await writeFile(path.join(folder, SECRETS_FILE), text, { mode: 0o600 });
  return true;
}

/** What the operator must know about the secrets of a backup just taken (never their values). */
export function backupSecretsWarnings(fromEnvironment: string[], secretsFile: boolean): string[] {
  const warnings: string[] = [];
  if (fromEnvironment.includes('TOKEN_KEY')) {
    warnings.push(
      'TOKEN_KEY is set in the environment, so it is not in this backup: keep it safely apart from the backup. Without it the stored Threads tokens cannot be read: members must sign in again and the curator must reconnect.',
    );
  }
  if (fromEnvironment.includes('SESSION_SECRET')) {
    warnings.push(
      'SESSION_SECRET is set in the environment, so it is not in this backup: without it every session ends at restore (members sign in again).',
    );
  }
  if (secretsFile && fromEnvironment.length < 2) {
    warnings.push(
      'secrets.json is in this backup: it decrypts the stored Threads tokens, so keep the backup as private as the data folder.',
    );
  }
  return warnings;
}

/**
 * Puts the backup's secrets.json into DATA_DIR (private). Whatever was there has been moved aside by
 * the caller. Returns false when the backup has none.
 */
export async function restoreSecrets(backupFolder: string, dataDir: string): Promise<boolean> {
  const text = await readFile(path.join(backupFolder, SECRETS_FILE), 'utf8').catch(() => null);
  if (text === null) return false;
  await mkdir(dataDir, { recursive: true });
  await writeFile(path.join(dataDir, SECRETS_FILE), text, { mode: 0o600 });
  return true;
}

/** What the operator must know about the secrets after a restore. */
export function restoreSecretsWarnings(
  manifest: { secretsFile: boolean; secretsFromEnvironment: string[]; tokenKeyFingerprint: string },
  currentTokenKey: Buffer | undefined,
): string[] {
  if (manifest.secretsFromEnvironment.includes('TOKEN_KEY')) {
    if (!currentTokenKey) {
      return [
        'This backup was taken with TOKEN_KEY set in the environment: start the server with that same TOKEN_KEY, or the stored Threads tokens are lost (members sign in again).',
      ];
    }
    if (tokenKeyFingerprint(currentTokenKey) !== manifest.tokenKeyFingerprint) {
      return [
        'TOKEN_KEY in this environment is not the key this backup was taken with: start the server with the original TOKEN_KEY, or the stored Threads tokens are lost (members sign in again).',
      ];
    }
  } else if (currentTokenKey && tokenKeyFingerprint(currentTokenKey) !== manifest.tokenKeyFingerprint) {
    return [
      'TOKEN_KEY is set in this environment but the backup used the one in its secrets.json: unset TOKEN_KEY (or set it to that key), or the stored Threads tokens are lost.',
    ];
  }
  return [];
}
