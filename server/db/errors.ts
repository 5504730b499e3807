/** An error and the causes Drizzle wrapped around the driver's error, innermost last (at most 5). */
function* causes(error: unknown): Generator<Error & { code?: unknown }> {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    yield current;
    current = current.cause;
  }
}

/** Whether an error (or a cause Drizzle wrapped it in) is PostgreSQL's unique violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (const current of causes(error)) if (current.code === '23505') return true;
  return false;
}

// Connection-level failures of PostgreSQL (class 08, admin shutdown 57P0x) and of the socket or
// the embedded database: the request was fine, the database was not reachable.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);
const UNAVAILABLE_MESSAGE = /PGlite is closed|Cannot use a pool after calling end|Connection terminated/i;

/** Whether an error (or its cause, as Drizzle wraps driver errors) means the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, message } of causes(error)) {
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  return false;
}
