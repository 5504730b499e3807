import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { freePort } from '../../../scripts/free-port.ts';
import { TEST_SITE } from '../../site-under-test.ts';

const MAIN = path.resolve(import.meta.dirname, '../../../server/main.ts');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/** Starts `server/main.ts` as a real process on the site under test; `env` adds or overrides variables. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: TEST_SITE.publicUrl,
      SITE_DIR: TEST_SITE.siteDir,
      SAMPLE_CATALOGUE_DIR: TEST_SITE.catalogueDir,
      CONTACT_EMAIL: TEST_SITE.contactEmail ?? '',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, port, output: () => output, exited };
}

/** Waits until the process prints that it listens, or fails with what it printed if it exits first. */
export async function waitUntilListening(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes('is running at')) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
