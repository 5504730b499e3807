import { createCurationRunsRepository } from '../../repositories/curation-runs.ts';
import type { SearchMode } from '../../threads/gateway.ts';
import { postToThread } from '../publishing/post-to-thread.ts';
import type { TokenHolder } from '../tokens/token-store.ts';
import type { CurationDeps, RunState } from './run-context.ts';
import { QUOTA_WINDOW_MS, searchesLeft } from './search-budget.ts';

/**
 * The keyword and tag searches of a run, with the curator's token, within the 24-hour search
 * budget (threads-api.md section 3). Each search is recorded before it is made: the quota counts it
 * whatever the answer.
 */
export async function runSearches(
  deps: CurationDeps,
  curator: TokenHolder,
  { add, errors, say, now, searchesMade, onSearch }: RunState,
): Promise<void> {
  const runs = createCurationRunsRepository(deps.db);
  say(`Searching as @${curator.user.threadsUsername}.`);
  const queries: [SearchMode, string][] = [
    ...deps.settings.keywords.map((q): [SearchMode, string] => ['KEYWORD', q]),
    ...deps.settings.tags.map((q): [SearchMode, string] => ['TAG', q]),
  ];
  const used = await runs.searchesSince(
    curator.user.threadsUserId,
    new Date(now().getTime() - QUOTA_WINDOW_MS),
  );
  let left = searchesLeft(used, deps.settings.searchBudget);
  for (const [mode, q] of queries) {
    if (left <= 0) {
      const message = `Search budget reached (${used + searchesMade()} of ${deps.settings.searchBudget} in 24 hours): skipped the remaining searches.`;
      errors.push(message);
      say(`! ${message}`);
      break;
    }
    const source = mode === 'TAG' ? 'public_tag' : 'public_search';
    try {
      await runs.recordSearch(curator.user.threadsUserId, `${mode}:${q}`, now());
      onSearch();
      left -= 1;
      const { posts } = await deps.gateway.keywordSearch(curator.token, { q, mode, type: 'TOP', limit: 25 });
      const added = await add(
        source,
        posts.map((post) => postToThread(post, source, { query: q })),
      );
      say(`${mode === 'TAG' ? 'Tag' : 'Keyword'} "${q}": ${posts.length} found, ${added} new.`);
    } catch (error) {
      errors.push(`${mode === 'TAG' ? 'Tag' : 'Keyword'} "${q}": ${(error as Error).message}`);
      say(`! ${errors.at(-1)}`);
    }
  }
}
