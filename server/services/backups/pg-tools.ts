/**
 * PostgreSQL's own tools, pg_dump and pg_restore, found and run without ever showing the password:
 * it goes to them in PGPASSWORD, not on the command line (which `ps` shows), and is masked in any
 * message they print.
 */
import { spawn } from 'node:child_process';
import { access, constants, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Raised when a tool is missing or fails; the message is one line, password-free. */
export class PgToolError extends Error {
  override name = 'PgToolError';
}

/** Where Debian's postgresql packages put the tools (not on PATH unless postgresql-client-common is installed). */
export const DEBIAN_PG_ROOT = '/usr/lib/postgresql';

async function executable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * The tool's path: the first on PATH, else the newest version under `debianRoot` (a newer pg_dump
 * reads older servers, not the other way round). Null when neither has it.
 */
export async function findPgTool(
  tool: 'pg_dump' | 'pg_restore',
  searchPath = process.env.PATH ?? '',
  debianRoot = DEBIAN_PG_ROOT,
): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    if (await executable(path.join(dir, tool))) return path.join(dir, tool);
  }
  const versions = (await readdir(debianRoot).catch(() => [] as string[]))
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const file = path.join(debianRoot, version, 'bin', tool);
    if (await executable(file)) return file;
  }
  return null;
}

/** The connection string without its password, and the password apart. */
export function splitPassword(databaseUrl: string): { url: string; password: string | undefined } {
  const parsed = new URL(databaseUrl);
  const password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  parsed.password = '';
  return { url: parsed.toString(), password };
}

/** Replaces every occurrence of the password (raw and URL-encoded) with ***. */
function masked(text: string, password: string | undefined): string {
  if (!password) return text;
  return text.split(password).join('***').split(encodeURIComponent(password)).join('***');
}

/**
 * Runs pg_dump or pg_restore with `args` against `databaseUrl` (given as --dbname without its
 * password). Resolves when it exits 0; otherwise throws PgToolError with the tool's last error line.
 */
export async function runPgTool(
  tool: 'pg_dump' | 'pg_restore',
  args: string[],
  databaseUrl: string,
): Promise<void> {
  const file = await findPgTool(tool);
  if (!file) {
    throw new PgToolError(
      `${tool} was not found on PATH nor in ${DEBIAN_PG_ROOT}/*/bin: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), the same major version as the server or newer.`,
    );
  }
  const { url, password } = splitPassword(databaseUrl);
  const env = { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) };
  const child = spawn(file, [...args, `--dbname=${url}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    // Only the end matters: the last error line says what went wrong.
    stderr = (stderr + chunk.toString()).slice(-8000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code === 0) return;
  const lines = masked(stderr, password)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const last = lines.findLast((line) => /error|fatal/i.test(line)) ?? lines.at(-1) ?? 'no message';
  throw new PgToolError(`${tool} failed (exit ${code}): ${last}`);
}
