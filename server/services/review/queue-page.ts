import { REVIEW_PAGE_SIZE, SCORE_WINDOW, type ReviewSort } from '../../../contract/review-queue.ts';
import type { Database } from '../../db/client.ts';
import {
  createReviewQueueRepository,
  type PendingSignalRow,
  type ReviewFilter,
  type ReviewKey,
} from '../../repositories/review-queue.ts';
import { createReviewSignalsRepository } from '../../repositories/review-signals.ts';
import { createQualityModel } from './quality-model.ts';
import { groupDuplicates, scoresOf, signalsOf } from './queue-signals.ts';

/** What one page of the queue asks for, the cursor already read. */
export interface QueuePageRequest {
  filter: ReviewFilter;
  sort: ReviewSort;
  key: ReviewKey | null;
  group: boolean;
}

/** The review queue's pages with their signals (decision 055); one per server, so its model cache is shared. */
export function createQueuePages(db: Database) {
  const queue = createReviewQueueRepository(db);
  const signals = createReviewSignalsRepository(db);
  const model = createQualityModel(signals);

  /**
   * The order by score: the newest SCORE_WINDOW matching threads ranked in memory by (score, id),
   * paged by that pair. A bounded alternative to keyset paging in SQL: the score is learned, not stored.
   */
  async function byScore(filter: ReviewFilter, key: ReviewKey | null) {
    const window = await queue.page(filter, 'newest', null, SCORE_WINDOW);
    const scores = await scoresOf(signals, model, window);
    const score = (row: PendingSignalRow) => scores.get(row.id)?.score ?? 0;
    const ranked = window
      .map((row) => ({ row, score: score(row) }))
      .sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0))
      .filter(
        ({ row, score: s }) =>
          !key || key.sort !== 'score' || s < key.score || (s === key.score && row.id < key.id),
      );
    const shown = ranked.slice(0, REVIEW_PAGE_SIZE);
    const last = shown.at(-1);
    const next: ReviewKey | null =
      ranked.length > REVIEW_PAGE_SIZE && last ? { sort: 'score', score: last.score, id: last.row.id } : null;
    return { rows: shown.map((entry) => entry.row), next, scores };
  }

  async function byTable(filter: ReviewFilter, sort: 'newest' | 'likes', key: ReviewKey | null) {
    const tableKey = key && key.sort !== 'score' ? key : null;
    const rows = await queue.page(filter, sort, tableKey, REVIEW_PAGE_SIZE + 1);
    const shown = rows.slice(0, REVIEW_PAGE_SIZE);
    const last = shown.at(-1);
    return { rows: shown, next: rows.length > REVIEW_PAGE_SIZE && last ? last.key : null, scores: undefined };
  }

  return {
    /** One page: its rows (grouped when asked), each row's signals, and the key of the page after. */
    async page({ filter, sort, key, group }: QueuePageRequest) {
      const { rows, next, scores } =
        sort === 'score' ? await byScore(filter, key) : await byTable(filter, sort, key);
      const entries = group ? groupDuplicates(rows) : rows.map((row) => ({ row, grouped: 0 }));
      // The score order has ranked its whole window already: its scores are not worked out twice.
      const found = await signalsOf(signals, model, entries, scores);
      return { entries, signals: found, next };
    },
    queue,
  };
}
