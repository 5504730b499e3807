import { createCurationRunsRepository } from '../../repositories/curation-runs.ts';
import { ThreadsApiError, type SearchMode, type SearchType } from '../../threads/gateway.ts';
import { postToThread } from '../publishing/post-to-thread.ts';
import type { TokenHolder } from '../tokens/token-store.ts';
import type { CurationDeps, RunState } from './run-context.ts';
import { QUOTA_WINDOW_MS, searchesLeft } from './search-budget.ts';

/** Posts per search page: the most Graph gives, at the same quota cost as 25 (threads-api.md section 3). */
export const SEARCH_PAGE_LIMIT = 100;
/** Pages one RECENT search of a query may read in a run (each page is a search against the quota). */
export const RECENT_PAGES = 3;
/** A query's TOP search runs once a day: popular posts change slowly and cost the same quota. */
export const TOP_EVERY_MS = 24 * 3_600_000;

/** How a search is recorded in search_calls: mode, type and query (the quota counts them all). */
export const searchKey = (mode: SearchMode, type: SearchType, q: string) => `${mode}:${type}:${q}`;

/** Raised to stop every remaining search of the run (budget spent, or Threads throttles). */
class StopSearching extends Error {}

/**
 * The keyword and tag searches of a run, with the curator's token, within the 24-hour search
 * budget (threads-api.md section 3). Per query: RECENT since the last answered search of it, 100 a
 * page, following `after` for at most RECENT_PAGES pages; and TOP when the query had no TOP search
 * in the last day. Each call is recorded before it is made (the quota counts it whatever the
 * answer) and marked answered when it answers.
 */
export async function runSearches(deps: CurationDeps, curator: TokenHolder, state: RunState): Promise<void> {
  const { errors, say, now } = state;
  const runs = createCurationRunsRepository(deps.db);
  const userId = curator.user.threadsUserId;
  say(`Searching as @${curator.user.threadsUsername}.`);
  const queries: [SearchMode, string][] = [
    ...deps.settings.keywords.map((q): [SearchMode, string] => ['KEYWORD', q]),
    ...deps.settings.tags.map((q): [SearchMode, string] => ['TAG', q]),
  ];
  const used = await runs.searchesSince(userId, new Date(now().getTime() - QUOTA_WINDOW_MS));
  let left = searchesLeft(used, deps.settings.searchBudget);

  /** One search call, recorded for the quota and marked answered. */
  const call = async (
    mode: SearchMode,
    type: SearchType,
    q: string,
    since: Date | null,
    after: string | null,
  ) => {
    if (left <= 0) {
      const message = `Search budget reached (${used + state.searchesMade()} of ${deps.settings.searchBudget} in 24 hours): skipped the remaining searches.`;
      errors.push(message);
      say(`! ${message}`);
      throw new StopSearching(message);
    }
    const id = await runs.recordSearch(userId, searchKey(mode, type, q), now());
    state.onSearch();
    left -= 1;
    const page = await deps.gateway.keywordSearch(curator.token, {
      q,
      mode,
      type,
      limit: SEARCH_PAGE_LIMIT,
      since,
      after,
    });
    await runs.completeSearch(id, now());
    return page;
  };

  for (const [mode, q] of queries) {
    const label = `${mode === 'TAG' ? 'Tag' : 'Keyword'} "${q}"`;
    const source = mode === 'TAG' ? 'public_tag' : 'public_search';
    const lastTop = await runs.lastCompletedSearch(userId, searchKey(mode, 'TOP', q));
    const types: SearchType[] = ['RECENT'];
    if (!lastTop || now().getTime() - lastTop.getTime() >= TOP_EVERY_MS) types.push('TOP');
    for (const type of types) {
      // RECENT asks only for what was posted since the last answered RECENT search was made.
      const since =
        type === 'RECENT' ? await runs.lastCompletedSearch(userId, searchKey(mode, 'RECENT', q)) : null;
      let found = 0;
      let added = 0;
      let skipped = 0;
      let pages = 0;
      try {
        let after: string | null = null;
        do {
          const page = await call(mode, type, q, since, after);
          pages += 1;
          found += page.posts.length;
          skipped += page.skipped;
          added += await state.add(
            source,
            page.posts.map((post) => postToThread(post, source, { query: q })),
          );
          after = page.next;
        } while (after && type === 'RECENT' && pages < RECENT_PAGES);
        const window = since ? ` since ${since.toISOString()}` : '';
        const skippedNote = skipped > 0 ? `, ${skipped} skipped (reposts or malformed items)` : '';
        say(
          `${label} ${type}${window} (${pages} ${pages === 1 ? 'page' : 'pages'}): ${found} found, ${added} new${skippedNote}.`,
        );
      } catch (error) {
        if (error instanceof StopSearching) return;
        errors.push(`${label} ${type}: ${(error as Error).message}`);
        say(`! ${errors.at(-1)}`);
        // Throttling is per user: every further search would be refused too.
        if (error instanceof ThreadsApiError && error.kind === 'throttled') return;
      }
    }
  }
}
