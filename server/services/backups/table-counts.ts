/**
 * Rows per table of a database, read from the catalog rather than our schema: a restored backup may
 * predate the newest migration. A restore prints them, and the tests compare them.
 */

/** Runs one SQL statement (no parameters) and returns its rows. */
export type RunSql = (statement: string) => Promise<Record<string, unknown>[]>;

/** The row count of every table in the public schema, by table name, sorted by name. */
export async function countRows(run: RunSql): Promise<Record<string, number>> {
  const tables = await run(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const table = String(name);
    // The name comes from the catalog; quoting keeps any name a single identifier.
    const [row] = await run(`select count(*)::int as count from "${table.replace(/"/g, '""')}"`);
    counts[table] = Number(row?.count ?? 0);
  }
  return counts;
}
