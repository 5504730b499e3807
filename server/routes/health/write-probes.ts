import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { getSystemErrorMessage } from 'node:util';
import type { Database } from '../../db/client.ts';
import { createAppMetaRepository } from '../../repositories/app-meta.ts';

/** A write-path check: null when the write went through, else a sentence saying what fails. */
export type WriteProbe = () => Promise<string | null>;

/** How long a probe may take before health reports it as not answering. */
export const PROBE_TIMEOUT_MS = 2000;

/** The file written and removed in the data folder (dot-named: nothing serves or lists it). */
export const PROBE_FILE = '.health-probe';

/** The app_meta key the database probe upserts (one row, whichever instance writes it). */
export const PROBE_KEY = 'health_probe';

/**
 * Runs `probe` with a deadline, and never two at once: while a probe hangs (a stuck disk, a write
 * waiting on a lock), the next calls report it without starting another. Trap: without that, a hung
 * filesystem would take a libuv thread per second until every file operation of the process waits,
 * and a hung database write would take a pool connection per second.
 */
function bounded(probe: () => Promise<string | null>, what: string, timeoutMs: number): WriteProbe {
  let running: Promise<string | null> | null = null;
  const late = `${what}: no answer within ${timeoutMs / 1000} s.`;
  return async () => {
    if (running) return late;
    const attempt = probe().finally(() => {
      running = null;
    });
    running = attempt;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(late), timeoutMs);
    });
    try {
      return await Promise.race([attempt, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The SQLSTATE of a database error (drizzle wraps the driver's error in `cause`), if any. */
function sqlState(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * Why the database refused a write, in words an operator can act on. Only the SQLSTATE is shown:
 * the driver's own message can name roles and hosts, and health is public.
 */
export function databaseWriteReason(error: unknown): string {
  const code = sqlState(error);
  // A standby, or default_transaction_read_only set on the database or role.
  if (code === '25006') return 'it is read-only (25006)';
  if (code === '53100') return 'its disk is full (53100)';
  if (code === '42501') return 'permission denied (42501)';
  if (code?.startsWith('53')) return `it is out of resources (${code})`;
  if (code?.startsWith('08') || code?.startsWith('57P')) return `the connection failed (${code})`;
  return code ? `it refused the write (${code})` : 'it refused the write';
}

/** Why a file operation failed, from the system's own words: "no space left on device (ENOSPC)". */
export function fileWriteReason(error: unknown): string {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  if (typeof errno === 'number' && typeof code === 'string')
    return `${getSystemErrorMessage(errno)} (${code})`;
  return typeof code === 'string' ? code : 'an unknown error';
}

/** Upserts one app_meta row: a committed write through the same pool (or PGlite) every route uses. */
export function databaseWriteProbe(db: Database, timeoutMs = PROBE_TIMEOUT_MS): WriteProbe {
  const meta = createAppMetaRepository(db);
  return bounded(
    async () => {
      try {
        await meta.set(PROBE_KEY, new Date().toISOString());
        return null;
      } catch (error) {
        return `The database cannot be written: ${databaseWriteReason(error)}.`;
      }
    },
    'The database did not confirm a write',
    timeoutMs,
  );
}

/** Writes the probe file, waits until it is on disk, closes it; the first failure, if any. */
async function writeDurably(file: string): Promise<unknown> {
  let handle;
  try {
    handle = await open(file, 'w');
    await handle.writeFile(`${new Date().toISOString()}\n`);
    await handle.sync();
  } catch (error) {
    await handle?.close().catch(() => {});
    return error;
  }
  // Some filesystems (NFS) report a failed write only when the file is closed.
  return handle.close().then(
    () => null,
    (error: unknown) => error,
  );
}

/**
 * Writes, fsyncs and removes a small file in `dataDir`, where the embedded database, the catalogue and
 * the site are written: a full disk, a read-only remount or lost permissions show here. The folder is
 * created when missing (the server would create it to write anything). A failed probe leaves its file
 * (an empty file, or whatever the name points at); the next successful one removes it.
 */
export function dataFolderWriteProbe(dataDir: string, timeoutMs = PROBE_TIMEOUT_MS): WriteProbe {
  const file = path.join(dataDir, PROBE_FILE);
  return bounded(
    async () => {
      const error =
        (await mkdir(dataDir, { recursive: true }).then(
          () => null,
          (failure: unknown) => failure,
        )) ??
        (await writeDurably(file)) ??
        // Another instance sharing the folder may have removed it first: gone is what we want.
        (await rm(file, { force: true }).then(
          () => null,
          (failure: unknown) => failure,
        ));
      return error ? `The data folder cannot be written: ${fileWriteReason(error)}.` : null;
    },
    'The data folder did not confirm a write',
    timeoutMs,
  );
}
