import { parseThreadUrl } from '../../../contract/thread-url.ts';
import type { Database } from '../../db/client.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import type { ThreadRow } from '../../repositories/threads.ts';
import { ThreadsApiError, type ThreadsGateway } from '../../threads/gateway.ts';
import { createTokenStore } from '../tokens/token-store.ts';

/** Attempts before a post is given up as failed; the waits between them double from a minute. */
export const MAX_PUBLISH_ATTEMPTS = 6;
const FIRST_RETRY_MS = 60_000;

/** When to try again after the `attempt`-th failure (1-based), or null to give up. */
export function retryAt(attempt: number, now: Date): Date | null {
  if (attempt >= MAX_PUBLISH_ATTEMPTS) return null;
  return new Date(now.getTime() + FIRST_RETRY_MS * 2 ** (attempt - 1));
}

/**
 * The text the curator's account posts about an approved submission: who wrote it, and the link
 * (left out when the post quotes the original, which shows it anyway). Nothing a member typed is
 * published: the admin approved the thread, not a text they never saw.
 */
export function composeGeneratedPost(thread: Pick<ThreadRow, 'username' | 'permalink' | 'mediaId'>): string {
  const who = thread.username ? `@${thread.username}` : 'a Threads member';
  const head = `Curated pick from ${who}`;
  return thread.mediaId ? head : `${head}\n\n${thread.permalink}`;
}

export interface PublishOutcome {
  published: number;
  retrying: number;
  failed: number;
}

/**
 * Publishes due generated posts with the curator's token. A refused post (Threads said no for a
 * reason a retry cannot fix) fails at once; an outage or a missing or expired token is retried
 * with doubling waits, up to MAX_PUBLISH_ATTEMPTS.
 */
export async function publishGeneratedPosts(deps: {
  db: Database;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
  adminUsernames: readonly string[];
  settings: { curatorUsername: string | null };
  now?: Date;
  limit?: number;
}): Promise<PublishOutcome> {
  const now = deps.now ?? new Date();
  const posts = createGeneratedPostsRepository(deps.db);
  const due = await posts.listDue(now, deps.limit ?? 10);
  const outcome: PublishOutcome = { published: 0, retrying: 0, failed: 0 };
  if (due.length === 0) return outcome;
  const curator = await createTokenStore(deps).curator(deps.settings, deps.adminUsernames);

  for (const post of due) {
    const attempt = post.attempts + 1;
    try {
      if (!curator)
        throw new ThreadsApiError(
          'No curator has a working Threads token: the curator (or an admin) must sign in again.',
          'invalid_token',
          null,
        );
      // Threads would refuse every attempt (code 10): fail now with the cure (decision 024).
      if (!curator.scopes.includes('threads_content_publish'))
        throw new ThreadsApiError(
          'The curation account has not granted threads_content_publish: connect it again from the dashboard.',
          'rejected',
          null,
        );
      // A container made by an earlier attempt is published again, never made twice: a retry after a
      // lost answer must not post the same thing twice.
      let creationId = post.creationId;
      if (!creationId) {
        creationId = await deps.gateway.createTextContainer(curator.token, {
          text: post.content,
          quotePostId: post.quotePostId,
        });
        await posts.saveCreationId(post.id, creationId);
      }
      const result = await deps.gateway.publishContainer(curator.token, creationId);
      // Only a Threads post link of ours ever reaches an href.
      const link = result.permalink ? parseThreadUrl(result.permalink) : null;
      await posts.markPublished(post.id, { mediaId: result.id, threadUrl: link?.ok ? link.link.url : null });
      outcome.published += 1;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const final = error instanceof ThreadsApiError && error.kind === 'rejected';
      const next = final ? null : retryAt(attempt, now);
      await posts.markAttemptFailed(post.id, reason, next);
      if (next) outcome.retrying += 1;
      else outcome.failed += 1;
    }
  }
  return outcome;
}
