/** Whether an error (or a cause Drizzle wrapped it in) is PostgreSQL's unique violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = current.cause;
  }
  return false;
}
