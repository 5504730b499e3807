import { createCurationRunsRepository, type RunOutcome } from '../../repositories/curation-runs.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { createThreadsRepository, type NewThread } from '../../repositories/threads.ts';
import { optedOutTest } from '../authors/opted-out-filter.ts';
import { createTokenStore, type TokenHolder } from '../tokens/token-store.ts';
import { INSIGHTS_SCOPE, ownPostPages, ownPostToThread } from '../publishing/post-to-thread.ts';
import { syncDeletions } from './deletion-sync.ts';
import type { CurationDeps, RunState } from './run-context.ts';
import { runSearches } from './search-step.ts';

export type { CurationDeps } from './run-context.ts';

/** A run's error when nobody may curate yet (the dashboard drops such runs once someone may). */
export const NO_CURATOR = 'No curator: an admin must sign in with Threads before searches can run.';

export interface CurationResult extends RunOutcome {
  id: number;
}

/** Own posts read per member and run (two pages of 50). */
const OWN_PAGES = 2;

/**
 * One curation run: keyword and tag searches with the curator's token within the search budget,
 * each approved member's own posts, and the deletion sync of approved posts. New posts arrive as
 * pending review, never twice. Every run is recorded with its counts and errors.
 */
export async function runCuration(deps: CurationDeps): Promise<CurationResult> {
  const say = deps.progress ?? (() => {});
  const now = deps.now ?? (() => new Date());
  const runs = createCurationRunsRepository(deps.db);
  const threads = createThreadsRepository(deps.db);
  const id = await runs.start(deps.trigger);
  const counts: RunOutcome['counts'] = {};
  const errors: string[] = [];
  let searches = 0;
  let hidden = 0;

  const add = async (source: string, rows: (NewThread | null)[], insightsSkipped = 0) => {
    // An author who asked never to be curated is left out before anything is stored (decision 028);
    // a known post Threads now names them for (a submitted link) becomes theirs (decision 063).
    const found = rows.filter((row): row is NewThread => row !== null);
    const optedOut = await optedOutTest(deps.db, found);
    const usable = found.filter((row) => !optedOut(row));
    const theirs = found.filter(optedOut);
    const left = theirs.length
      ? await deps.db.transaction((tx) => threads.attributeOptedOut(theirs, tx))
      : [];
    if (left.length > 0)
      say(`${left.length} submitted posts are by authors who opted out: out of the queue.`);
    const added = await threads.upsertFound(usable);
    const entry = (counts[source] ??= { seen: 0, added: 0 });
    entry.seen += usable.length;
    entry.added += added;
    // Only where a call was not made, so the summary of a source without insights stays {seen, added}.
    if (insightsSkipped > 0) entry.insights_skipped = (entry.insights_skipped ?? 0) + insightsSkipped;
    return added;
  };

  try {
    hidden = await collect(deps, {
      add,
      errors,
      say,
      now,
      searchesMade: () => searches,
      onSearch: () => (searches += 1),
    });
  } catch (error) {
    // A broken database or token key: the run is still recorded, as failed.
    errors.push(`Run stopped: ${(error as Error).message}`);
    say(`! ${errors.at(-1)}`);
  }

  const status =
    errors.length === 0 ? 'succeeded' : searches > 0 || Object.keys(counts).length > 0 ? 'partial' : 'failed';
  const outcome: RunOutcome = { status, counts, searches, hidden, errors };
  await runs.finish(id, outcome);
  const added = Object.values(counts).reduce((n, c) => n + c.added, 0);
  say(`Run ${id} ${status}: ${searches} searches, ${added} new posts.`);
  return { id, ...outcome };
}

/** The work of a run; returns how many approved posts it hid. */
async function collect(
  deps: CurationDeps,
  { add, errors, say, now, searchesMade, onSearch }: RunState,
): Promise<number> {
  const tokens = createTokenStore(deps);
  let hidden = 0;
  const curator = await tokens.curator(deps.settings, deps.adminUsernames);
  if (!curator) {
    errors.push(NO_CURATOR);
    say(`! ${errors.at(-1)}`);
  } else if (!curator.scopes.includes('threads_keyword_search')) {
    // Without it Threads searches only the account's own posts: no search is spent (decision 024).
    errors.push(
      'The curation account has not granted threads_keyword_search: connect it again from the dashboard.',
    );
    say(`! ${errors.at(-1)}`);
  } else {
    await runSearches(deps, curator, { add, errors, say, now, searchesMade, onSearch });
  }

  // The curator's generated posts are ours, not a member's work to review.
  const generated = await createGeneratedPostsRepository(deps.db).publishedMediaIds();
  for (const member of await tokens.membersWithTokens()) {
    const who = `@${member.user.threadsUsername}`;
    try {
      const { added, skipped, failed } = await collectOwnPosts(deps, member, generated, add);
      say(`Own posts of ${who}: ${added} new.`);
      if (skipped > 0)
        say(`Insights of ${who}: ${calls(skipped)} not made: the token lacks ${INSIGHTS_SCOPE}.`);
      // A call that was made and failed is the run's error, not a post without counts (decision 068).
      if (failed.length > 0) {
        errors.push(`Insights of ${who}: ${calls(failed.length)} failed: ${failed[0]?.message}`);
        say(`! ${errors.at(-1)}`);
      }
    } catch (error) {
      errors.push(`Own posts of ${who}: ${(error as Error).message}`);
      say(`! ${errors.at(-1)}`);
    }
  }

  if (curator) {
    try {
      hidden = await syncDeletions(deps, curator.token, { errors, say, now });
      if (hidden > 0) say(`${hidden} approved posts are gone at the source and were hidden.`);
    } catch (error) {
      errors.push(`Deletion sync: ${(error as Error).message}`);
    }
  }

  return hidden;
}

const calls = (n: number) => `${n} ${n === 1 ? 'call' : 'calls'}`;

/**
 * A member's own posts, with insights only where their token may ask (decision 068): how many were
 * new, how many insights calls were not made, and the errors of those that were made and failed.
 */
async function collectOwnPosts(
  deps: CurationDeps,
  member: TokenHolder,
  skip: ReadonlySet<string>,
  add: RunState['add'],
): Promise<{ added: number; skipped: number; failed: Error[] }> {
  let added = 0;
  let skipped = 0;
  const failed: Error[] = [];
  for await (const posts of ownPostPages(deps.gateway, member.token, OWN_PAGES)) {
    const found = await Promise.all(
      posts
        .filter((post) => !skip.has(post.id))
        .map((post) => ownPostToThread(deps.gateway, member, post, 'user_own', member.user.id)),
    );
    const pageSkipped = found.filter(({ insights }) => insights.kind === 'skipped').length;
    for (const { insights } of found) if (insights.kind === 'failed') failed.push(insights.error);
    skipped += pageSkipped;
    added += await add(
      'user_own',
      found.map(({ row }) => row),
      pageSkipped,
    );
  }
  return { added, skipped, failed };
}
