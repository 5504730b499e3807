import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import {
  createCurationRunsRepository,
  type RunOutcome,
  type RunTrigger,
} from '../../repositories/curation-runs.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { createThreadsRepository, type NewThread } from '../../repositories/threads.ts';
import { createTokenStore, type TokenHolder } from '../tokens/token-store.ts';
import { ownPostPages, ownPostToThread, postToThread } from '../publishing/post-to-thread.ts';
import { QUOTA_WINDOW_MS, searchesLeft } from './search-budget.ts';
import type { SearchMode, ThreadsGateway } from '../../threads/gateway.ts';

export interface CurationDeps {
  db: Database;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
  settings: Config['curation'];
  adminUsernames: readonly string[];
  trigger: RunTrigger;
  /** Progress lines (the CLI prints them; the server logs them). */
  progress?: (line: string) => void;
  now?: () => Date;
}

export interface CurationResult extends RunOutcome {
  id: number;
}

/** How many approved posts one run re-checks at the source. */
const RECHECK_PER_RUN = 100;
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

  const add = async (source: string, rows: (NewThread | null)[]) => {
    const usable = rows.filter((row): row is NewThread => row !== null);
    const added = await threads.upsertFound(usable);
    const entry = (counts[source] ??= { seen: 0, added: 0 });
    entry.seen += usable.length;
    entry.added += added;
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

interface RunState {
  add: (source: string, rows: (NewThread | null)[]) => Promise<number>;
  errors: string[];
  say: (line: string) => void;
  now: () => Date;
  searchesMade: () => number;
  onSearch: () => void;
}

/** The work of a run; returns how many approved posts it hid. */
async function collect(
  deps: CurationDeps,
  { add, errors, say, now, searchesMade, onSearch }: RunState,
): Promise<number> {
  const runs = createCurationRunsRepository(deps.db);
  const tokens = createTokenStore(deps);
  let hidden = 0;
  const curator = await tokens.curator(deps.settings, deps.adminUsernames);
  if (!curator) {
    errors.push('No curator: an admin must sign in with Threads before searches can run.');
    say(`! ${errors.at(-1)}`);
  } else {
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
        const posts = await deps.gateway.keywordSearch(curator.token, { q, mode, type: 'TOP', limit: 25 });
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

  // The curator's generated posts are ours, not a member's work to review.
  const generated = await createGeneratedPostsRepository(deps.db).publishedMediaIds();
  for (const member of await tokens.membersWithTokens()) {
    try {
      const added = await collectOwnPosts(deps, member, generated, add);
      say(`Own posts of @${member.user.threadsUsername}: ${added} new.`);
    } catch (error) {
      errors.push(`Own posts of @${member.user.threadsUsername}: ${(error as Error).message}`);
      say(`! ${errors.at(-1)}`);
    }
  }

  if (curator) {
    try {
      hidden = await recheckApproved(deps, curator.token);
      if (hidden > 0) say(`${hidden} approved posts are gone at the source and were hidden.`);
    } catch (error) {
      errors.push(`Deletion sync: ${(error as Error).message}`);
    }
  }

  return hidden;
}

async function collectOwnPosts(
  deps: CurationDeps,
  member: TokenHolder,
  skip: ReadonlySet<string>,
  add: (source: string, rows: (NewThread | null)[]) => Promise<number>,
): Promise<number> {
  let added = 0;
  for await (const posts of ownPostPages(deps.gateway, member.token, OWN_PAGES)) {
    const rows = await Promise.all(
      posts
        .filter((post) => !skip.has(post.id))
        .map((post) => ownPostToThread(deps.gateway, member.token, post, 'user_own', member.user.id)),
    );
    added += await add('user_own', rows);
  }
  return added;
}

/** Hides approved posts Threads says no longer exist; returns how many. */
async function recheckApproved(deps: CurationDeps, token: string): Promise<number> {
  const threads = createThreadsRepository(deps.db);
  const due = await threads.listApprovedToRecheck(RECHECK_PER_RUN);
  const gone: string[] = [];
  for (const thread of due) {
    if (thread.mediaId && (await deps.gateway.post(token, thread.mediaId)) === null) gone.push(thread.id);
  }
  await threads.touch(due.map((thread) => thread.id));
  return threads.hide(gone);
}
