import type { DecisionKey } from '../../repositories/moderation-log.ts';

/** Longer than any cursor we hand out; anything longer is refused before it is decoded. */
const CURSOR_MAX_LENGTH = 200;
const EXACT_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque `next_cursor` of a page: the last decision's key, as base64url JSON. */
export function encodeCursor(key: DecisionKey): string {
  return Buffer.from(JSON.stringify([key.decidedAt, key.id])).toString('base64url');
}

/**
 * Reads a cursor we handed out; null for anything else (the route answers 400). The timestamp must be
 * a real moment, so a forged one cannot reach the database as a cast error.
 */
export function decodeCursor(cursor: string): DecisionKey | null {
  if (cursor.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return null;
  const [decidedAt, id] = parsed as unknown[];
  if (typeof decidedAt !== 'string' || typeof id !== 'string') return null;
  if (!EXACT_TIMESTAMP.test(decidedAt) || !UUID.test(id)) return null;
  // The millisecond part must survive a round trip: 2026-02-30 or 25:00 do not.
  const milliseconds = `${decidedAt.slice(0, 23)}Z`;
  const date = new Date(milliseconds);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== milliseconds) return null;
  // JavaScript knows a year 0; PostgreSQL does not (the cast would fail as a 500).
  if (date.getUTCFullYear() < 1970) return null;
  return { decidedAt, id };
}
