/**
 * Lookalike names (decision 065). Two names that fold alike read alike at a glance: `adm1n` and
 * `admin`, `ori_ux` and `ori.ux`, `B0B` and `bob`. Folding lowers case, drops `.` and `_` (a
 * Threads handle may hold a dot where a display name cannot) and maps the confusable ASCII glyphs
 * to one: 0 to o, and 1, l and i to i. Meant for ASCII names, as display names and Threads handles are.
 *
 * The database folds the same way with `translate(lower(x), FOLD_FROM, FOLD_TO)` (server/db/name-fold.ts):
 * the pairs below are both, so the two cannot drift apart. A character of FOLD_FROM past the end of
 * FOLD_TO is dropped, as SQL's translate() drops it.
 */
export const FOLD_FROM = '01l._';
export const FOLD_TO = 'oii';

const FOLDS = new Map([...FOLD_FROM].map((from, at) => [from, FOLD_TO[at] ?? '']));

/** The name's folded form: equal folded forms mean lookalike names. */
export function foldName(name: string): string {
  let folded = '';
  for (const character of name.toLowerCase()) folded += FOLDS.get(character) ?? character;
  return folded;
}
