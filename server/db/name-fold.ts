import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { FOLD_FROM, FOLD_TO } from '../../contract/name-fold.ts';

// Literals, not parameters: the schema's expression indexes and the repositories' queries must be
// the same text for PostgreSQL to match the one to the other (as queue-keys.ts does).
const quoted = (text: string) => sql.raw(`'${text.replaceAll("'", "''")}'`);

/** A name's folded form in SQL, as `foldName` (contract/name-fold.ts) computes it (decision 065). */
export function foldedName(name: AnyColumn | SQL): SQL {
  return sql`translate(lower(${name}), ${quoted(FOLD_FROM)}, ${quoted(FOLD_TO)})`;
}
