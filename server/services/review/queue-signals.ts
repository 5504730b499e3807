import {
  DUPLICATE_MATCHES,
  type ReviewDuplicate,
  type ReviewSignals,
} from '../../../contract/review-signals.ts';
import { threadPath } from '../../../contract/thread-page.ts';
import type { PendingSignalRow } from '../../repositories/review-queue.ts';
import { FEATURES, type Feature, type ReviewSignalsRepository } from '../../repositories/review-signals.ts';
import { scoreOf, type QualityModel } from './quality-model.ts';

/** Most duplicate chips one item carries. */
const DUPLICATES_SHOWN = 5;

const nameOf = (row: PendingSignalRow) => row.username?.toLowerCase() ?? '';

/** Each row's score, with one grouped query for the authors' history (and the cached model). */
export async function scoresOf(
  repository: ReviewSignalsRepository,
  model: QualityModel,
  rows: PendingSignalRow[],
) {
  const names = [...new Set(rows.map(nameOf).filter((name) => name !== ''))];
  const [history, counts] = await Promise.all([repository.authorHistory(names), model.counts()]);
  return new Map(
    rows.map((row) => {
      const author = history.get(nameOf(row)) ?? { approved: 0, rejected: 0 };
      const features = Object.fromEntries(FEATURES.map((feature) => [feature, row.facts[feature]])) as Record<
        Feature,
        boolean
      >;
      return [row.id, { author, ...scoreOf(counts, { features, author, text: row.text }) }];
    }),
  );
}

const keyOf = (row: PendingSignalRow, match: (typeof DUPLICATE_MATCHES)[number]) =>
  match === 'text' ? row.facts.textKey : match === 'link' ? row.facts.linkKey : row.facts.imageKey;

/** Decided threads like each row: one indexed query per kind of match, for the whole page. */
async function duplicatesOf(repository: ReviewSignalsRepository, rows: PendingSignalRow[]) {
  const found = new Map<string, ReviewDuplicate[]>();
  for (const match of DUPLICATE_MATCHES) {
    const keys = [...new Set(rows.flatMap((row) => keyOf(row, match) ?? []))];
    for (const other of await repository.duplicates(match, keys)) {
      for (const row of rows) {
        if (keyOf(row, match) !== other.forKey || row.id === other.id) continue;
        const list = found.get(row.id) ?? [];
        // One chip per other thread: its first match (text, then link, then picture) says enough.
        if (list.length >= DUPLICATES_SHOWN || list.some((seen) => seen.thread_id === other.id)) continue;
        list.push({
          match,
          thread_id: other.id,
          status: other.status,
          // Only an approved thread has a public page (decision 046).
          url: other.status === 'approved' ? threadPath(other.id) : null,
        });
        found.set(row.id, list);
      }
    }
  }
  return found;
}

/**
 * Pending rows sharing a text, link or picture folded into the first of them (in the page's order),
 * which counts them. Only within the page: the next page may hold more of the same.
 */
export function groupDuplicates(rows: PendingSignalRow[]): { row: PendingSignalRow; grouped: number }[] {
  const kept: { row: PendingSignalRow; grouped: number }[] = [];
  const owner = new Map<string, { row: PendingSignalRow; grouped: number }>();
  for (const row of rows) {
    const keys = DUPLICATE_MATCHES.flatMap((match) => {
      const key = keyOf(row, match);
      return key ? [`${match}:${key}`] : [];
    });
    const first = keys.map((key) => owner.get(key)).find((entry) => entry !== undefined);
    if (first) {
      first.grouped += 1;
      for (const key of keys) if (!owner.has(key)) owner.set(key, first);
      continue;
    }
    const entry = { row, grouped: 0 };
    kept.push(entry);
    for (const key of keys) owner.set(key, entry);
  }
  return kept;
}

/**
 * The signals of a page's rows: a few batched queries for the whole page, none per row. `known`:
 * scores already worked out for these rows (the score order ranks its window first).
 */
export async function signalsOf(
  repository: ReviewSignalsRepository,
  model: QualityModel,
  rows: { row: PendingSignalRow; grouped: number }[],
  known?: Awaited<ReturnType<typeof scoresOf>>,
): Promise<Map<string, ReviewSignals>> {
  const plain = rows.map((entry) => entry.row);
  const [scores, duplicates] = await Promise.all([
    known ?? scoresOf(repository, model, plain),
    duplicatesOf(repository, plain),
  ]);
  return new Map(
    rows.map(({ row, grouped }) => {
      const scored = scores.get(row.id);
      return [
        row.id,
        {
          author_approved: scored?.author.approved ?? 0,
          author_rejected: scored?.author.rejected ?? 0,
          duplicates: duplicates.get(row.id) ?? [],
          score: scored?.score ?? 50,
          score_reasons: scored?.reasons ?? [],
          grouped,
        },
      ];
    }),
  );
}
