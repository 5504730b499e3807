import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { inspect } from 'node:util';
import { runAdminCli } from '../../../scripts/admin/run.ts';

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/admin.ts');

/** Each spawned run that reads the database opens it in a process of its own (about 5 s, more on a loaded runner). */
export const SPAWNING = { timeout: 180_000 };
/** A test of several in-process runs, each opening the embedded database (far slower on a loaded runner). */
export const IN_PROCESS = { timeout: 120_000 };
/** The hint every usage error ends with. */
export const HINT = 'Run npm run admin -- --help.';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a run: the test's own, DATABASE_URL cleared (on the PostgreSQL pass too), `env` on top. */
function cliEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env };
}

/**
 * `npm run admin -- ...args` on the embedded database in `dataDir`, run in this process: the same
 * parsing, commands and exit codes as scripts/admin.ts without a Node start-up per run (decision 073).
 */
export async function runAdmin(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runAdminCli(args, {
    env: cliEnv(dataDir, env),
    stdout: (line) => stdout.push(line),
    // As console.error would show it: an unexpected error with its stack.
    stderr: (line) => stderr.push(typeof line === 'string' ? line : inspect(line)),
  });
  return { code, stdout: stdout.join('\n').trim(), stderr: stderr.join('\n').trim() };
}

/** The same run as `node scripts/admin.ts ...args` in a process of its own: for what only a process shows. */
export async function spawnAdmin(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [SCRIPT, ...args], { env: cliEnv(dataDir, env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}
