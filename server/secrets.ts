import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.ts';

export interface Secrets {
  /** Keys the hash under which session ids are stored. */
  sessionSecret: string;
  /** AES-256-GCM key for stored Threads tokens: 32 bytes. */
  tokenKey: Buffer;
}

interface SecretsFile {
  sessionSecret: string;
  tokenKey: string;
}

/**
 * The secrets from the environment or, in development, from `DATA_DIR/secrets.json`, generated on
 * first use (mode 0600). Production refuses to start without them (config.ts).
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const { sessionSecret, tokenKey } = config.secrets;
  if (sessionSecret && tokenKey) return { sessionSecret, tokenKey };
  const file = path.join(config.dataDir, 'secrets.json');
  let stored = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as SecretsFile,
    () => null,
  );
  if (!stored) {
    stored = { sessionSecret: randomBytes(32).toString('hex'), tokenKey: randomBytes(32).toString('hex') };
    await mkdir(config.dataDir, { recursive: true });
    // 'wx': if another process wrote the file first, keep theirs.
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, flag: 'wx' }).catch(
      async () => {
        stored = JSON.parse(await readFile(file, 'utf8')) as SecretsFile;
      },
    );
  }
  return {
    sessionSecret: sessionSecret ?? stored.sessionSecret,
    tokenKey: tokenKey ?? Buffer.from(stored.tokenKey, 'hex'),
  };
}
