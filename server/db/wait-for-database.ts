import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from './client.ts';

/** The waits between tries: about a minute in all, for a database that starts with the app (compose). */
export const CONNECT_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000, 30000];

/** PostgreSQL did not answer after every try: its message is one line, with no password in it. */
export class DatabaseUnreachableError extends Error {}

/** `host:port/database` of a connection URL: what a log may say about it (never its credentials). */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

/** Why a try failed, in a few words: the driver's code (ECONNREFUSED, 28P01...) and first line. */
function reason(error: unknown): string {
  // Drizzle wraps the driver's error ("Failed query: select 1") and keeps it as the cause.
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const line = typeof message === 'string' ? (message.split('\n')[0] ?? '') : String(cause);
  return typeof code === 'string' && !line.includes(code) ? `${code}: ${line}` : line || 'no answer';
}

/**
 * Waits until PostgreSQL answers a trivial query, trying again after each of `delaysMs`; one line
 * per failed try on `log`. Throws DatabaseUnreachableError after the last one. PGlite answers at once.
 */
export async function waitForDatabase(
  database: DatabaseHandle,
  where: string,
  {
    delaysMs = CONNECT_DELAYS_MS,
    log = (line: string) => console.error(line),
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  }: {
    delaysMs?: readonly number[];
    log?: (line: string) => void;
    sleep?: (ms: number) => Promise<void>;
  } = {},
): Promise<void> {
  const tries = delaysMs.length + 1;
  for (let attempt = 1; ; attempt++) {
    try {
      await database.db.execute(sql`select 1`);
      if (attempt > 1) log(`PostgreSQL at ${where} answered (try ${attempt} of ${tries}).`);
      return;
    } catch (error) {
      const delay = delaysMs[attempt - 1];
      if (delay === undefined)
        throw new DatabaseUnreachableError(
          `PostgreSQL at ${where} did not answer after ${tries} tries (${reason(error)}). Check DATABASE_URL and that the database is running.`,
        );
      log(
        `PostgreSQL at ${where} is not answering (${reason(error)}); trying again in ${delay / 1000} s (try ${attempt} of ${tries}).`,
      );
      await sleep(delay);
    }
  }
}
