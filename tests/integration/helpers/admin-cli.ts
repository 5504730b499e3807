import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/admin.ts');

/** Each CLI run that reads the database opens it in a process of its own (about 5 s, more on a loaded runner). */
export const SPAWNING = { timeout: 180_000 };
/** The hint every usage error ends with. */
export const HINT = 'Run npm run admin -- --help.';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- ...args` on the embedded database in `dataDir` (DATABASE_URL cleared, on the PostgreSQL pass too). */
export async function runAdmin(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}
