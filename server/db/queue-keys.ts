import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * The keys that make two threads near-duplicates in the review queue (decision 055). The schema's
 * expression indexes and the repository's queries build them here, so they stay the same text and
 * PostgreSQL matches the one to the other.
 */

/** The text without case, whitespace or punctuation, hashed (an index entry stays small). */
export function normalisedText(text: AnyColumn | SQL): SQL {
  return sql`regexp_replace(lower(${text}), '[[:space:][:punct:]]+', '', 'g')`;
}

/** md5 of the normalised text. */
export function textKey(text: AnyColumn | SQL): SQL {
  return sql`md5(${normalisedText(text)})`;
}

/**
 * The first link of the text: no scheme, no www., no query or fragment, lower case, no trailing
 * punctuation. (No ';' in these expressions: drizzle-kit splits an index's description on it.)
 */
export function linkKey(text: AnyColumn | SQL): SQL {
  return sql`rtrim(lower(substring(${text} from 'https?://(?:www[.])?([^[:space:]?#]+)')), '/.,:!)')`;
}

/**
 * The picture's file at the CDN: its address's path, without host or query. A signed address is
 * signed again with a new query (and may come from another CDN host) but keeps its path.
 */
export function imageKey(imageUrl: AnyColumn | SQL): SQL {
  return sql`substring(${imageUrl} from '^[a-zA-Z]+://[^/]+(/[^?#]*)')`;
}
