import type { Database } from '../../db/client.ts';
import { createGeneratedPostsRepository, type GeneratedPostRow } from '../../repositories/generated-posts.ts';
import type { ThreadRow } from '../../repositories/threads.ts';
import { ThreadsApiError, type ThreadsErrorKind, type ThreadsGateway } from '../../threads/gateway.ts';
import { createTokenStore } from '../tokens/token-store.ts';
import { publishThroughContainer } from './container-step.ts';

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

/**
 * The text the curator's account posts when a weekly digest is published (decision 060): which week,
 * how many threads, and the digest page's address last, where Threads makes its link preview.
 */
export function composeDigestPost(
  week: { year: number; week: number },
  threads: number,
  url: string,
): string {
  const picks = threads === 1 ? '1 design and UI thread' : `${threads} design and UI threads`;
  return `The weekly digest, week ${week.week} of ${week.year}: ${picks} worth your time, picked from the catalogue.\n\n${url}`;
}

export interface PublishOutcome {
  published: number;
  /** Moved to a later run without spending an attempt: the publishing limit, a container in progress. */
  postponed: number;
  retrying: number;
  failed: number;
}

/** How long posts wait when the curator's account reached Threads' publishing limit. */
export const QUOTA_WAIT_MS = 60 * 60_000;

/** Kinds no waiting cures: Threads refused the post, or the token lacks the publishing permission. */
const FINAL_KINDS: readonly ThreadsErrorKind[] = ['rejected', 'missing_permission'];

/** The reason a post fails, worded for the admins. */
function reasonOf(error: unknown): string {
  if (error instanceof ThreadsApiError && error.kind === 'missing_permission')
    return 'The curation account may not publish (threads_content_publish was not granted): connect it again from the dashboard and allow publishing.';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Publishes due generated posts with the curator's token, within Threads' publishing limit (250
 * posts in 24 hours: at the limit every due post waits an hour, no attempt spent) and guided by
 * each container's status (container-step.ts), so a post is never published twice. Throttling, an
 * outage or a missing or expired token is retried with doubling waits, up to MAX_PUBLISH_ATTEMPTS;
 * a missing permission or a refusal fails at once.
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
  const outcome: PublishOutcome = { published: 0, postponed: 0, retrying: 0, failed: 0 };
  if (due.length === 0) return outcome;

  const failAttempt = async (post: GeneratedPostRow, error: unknown, dropContainer = false) => {
    const retryable = !(error instanceof ThreadsApiError) || !FINAL_KINDS.includes(error.kind);
    const next = retryable ? retryAt(post.attempts + 1, now) : null;
    await posts.markAttemptFailed(post.id, reasonOf(error), next, { dropContainer });
    if (next) outcome.retrying += 1;
    else outcome.failed += 1;
  };

  const curator = await createTokenStore(deps).curator(deps.settings, deps.adminUsernames);
  let remaining: number;
  let limit: number;
  try {
    if (!curator)
      throw new ThreadsApiError(
        'No curator has a working Threads token: the curator (or an admin) must sign in again.',
        'invalid_token',
        null,
      );
    // Threads would refuse every attempt (code 10): fail now with the cure (decision 024).
    if (!curator.scopes.includes('threads_content_publish'))
      throw new ThreadsApiError('threads_content_publish was not granted.', 'missing_permission', null);
    const quota = await deps.gateway.publishingQuota(curator.token);
    ({ limit } = quota);
    remaining = quota.limit - quota.used;
  } catch (error) {
    for (const post of due) await failAttempt(post, error);
    return outcome;
  }

  const claimed = await posts.publishedMediaIds();
  for (const [index, post] of due.entries()) {
    if (remaining <= 0) {
      // Threads' limit (threads-api.md section 7): wait for older posts to leave the 24 hours.
      const rest = due.slice(index);
      await posts.postpone(
        rest.map((row) => row.id),
        `The curator's account reached Threads' limit of ${limit} posts in 24 hours: publishing waits, no attempt spent.`,
        new Date(now.getTime() + QUOTA_WAIT_MS),
      );
      outcome.postponed += rest.length;
      break;
    }
    try {
      const step = await publishThroughContainer(
        { gateway: deps.gateway, posts, token: curator.token, now, claimed },
        post,
      );
      if (step.step === 'published') {
        await posts.markPublished(post.id, { mediaId: step.mediaId, threadUrl: step.threadUrl });
        if (step.mediaId) claimed.add(step.mediaId);
        outcome.published += 1;
        if (!step.recovered) remaining -= 1;
      } else if (step.step === 'wait') {
        await posts.postpone([post.id], step.reason, step.until);
        outcome.postponed += 1;
      } else {
        await failAttempt(post, new Error(step.reason), true);
      }
    } catch (error) {
      await failAttempt(post, error);
    }
  }
  return outcome;
}
