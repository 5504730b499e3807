import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createThreadsRepository, type ThreadRow } from '../../repositories/threads.ts';
import { ThreadsApiError, type ThreadsPost } from '../../threads/gateway.ts';
import { createDecisionNotices } from '../notices/decision-notices.ts';
import { pictureOf } from '../publishing/post-to-thread.ts';
import type { CurationDeps, RunState } from './run-context.ts';

/** How many approved posts one run re-checks at the source. */
const RECHECK_PER_RUN = 100;
/**
 * The most approved posts one run may hide. Many posts vanishing at once is more likely a change
 * at Meta (an access level, an outage) than many authors deleting: the rest wait for the next run.
 */
export const MAX_HIDES_PER_RUN = 10;
/** Two unconfirmed misses at least this far apart confirm a deletion (when oEmbed cannot answer). */
export const CONFIRM_AFTER_MS = 24 * 3_600_000;

/** How a deletion was confirmed: oEmbed said the post is gone, or two misses a day apart. */
export type DeletionProof = 'oembed' | 'two_misses';

/** What one check at the source found: the post when Threads returned it. */
type Finding = ThreadsPost | 'readable' | 'gone' | 'unconfirmed';

/** Thrown to stop the sync: the message says why, for the run's errors. */
class SyncStopped extends Error {}

/** Where a Threads failure can be traced: Meta's id of the failed call, when it sent one. */
function traced(error: ThreadsApiError): string {
  return error.fbtraceId ? `${error.message} (fbtrace_id ${error.fbtraceId})` : error.message;
}

/**
 * Re-checks approved posts at the source and hides those confirmed gone (decision 026). `post()`
 * answering null is not proof: with standard access Meta says the same (code 100, subcode 33) of
 * every post the app's own users did not make. So a post is gone only when oEmbed says so, or, while
 * oEmbed is throttled or down, when it was also missing a day earlier. At most MAX_HIDES_PER_RUN
 * hides a run, each audited in the transaction of its status change. A throttled, unavailable or
 * refused Threads call stops the sync (an error of the run), never a hide. Returns how many it hid.
 */
export async function syncDeletions(
  deps: CurationDeps,
  token: string,
  { errors, say, now }: Pick<RunState, 'errors' | 'say' | 'now'>,
): Promise<number> {
  const threads = createThreadsRepository(deps.db);
  const audit = createAuditLogRepository(deps.db);
  const notices = createDecisionNotices(deps.db);
  const due = await threads.listApprovedToRecheck(RECHECK_PER_RUN);
  const readable: string[] = [];
  const checked: string[] = [];
  let hidden = 0;
  let waiting = 0;
  // Once oEmbed is throttled or down it is not asked again this run: misses are recorded instead.
  let oembedDown = false;

  const report = (line: string) => {
    errors.push(`Deletion sync: ${line}`);
    say(`! ${errors.at(-1)}`);
  };

  async function check(thread: ThreadRow & { mediaId: string }): Promise<Finding> {
    const post = await deps.gateway.post(token, thread.mediaId);
    if (post !== null) return post;
    if (oembedDown) return 'unconfirmed';
    try {
      return (await deps.gateway.oembed(thread.permalink)) === 'exists' ? 'readable' : 'gone';
    } catch (error) {
      if (!(error instanceof ThreadsApiError)) throw error;
      if (!error.temporary) throw new SyncStopped(`oEmbed refused: ${traced(error)}`);
      oembedDown = true;
      say(`oEmbed cannot answer (${traced(error)}): misses are recorded, not confirmed.`);
      return 'unconfirmed';
    }
  }

  async function hide(thread: ThreadRow, proof: DeletionProof, firstMiss: Date | null): Promise<boolean> {
    const done = await deps.db.transaction(async (tx) => {
      const row = await threads.hideGoneAtSource(thread.id, tx);
      if (!row) return false;
      // Its gems stay stored (they come back if it does) but leave their members' lists.
      await notices.gemsLeft(row, 'gone_at_source', tx);
      await audit.record(
        {
          actorUserId: null,
          action: 'thread.hidden_at_source',
          subject: thread.id,
          details: {
            confirmedBy: proof,
            mediaId: thread.mediaId,
            permalink: thread.permalink,
            missingSince: firstMiss?.toISOString() ?? null,
          },
        },
        tx,
      );
      return true;
    });
    if (done) {
      const how = proof === 'oembed' ? 'oEmbed says it is gone' : 'missing for over a day';
      say(`Hidden, gone at the source (${how}): ${thread.permalink}`);
    }
    return done;
  }

  try {
    for (const thread of due) {
      if (!thread.mediaId) continue;
      let finding: Finding;
      try {
        finding = await check({ ...thread, mediaId: thread.mediaId });
      } catch (error) {
        if (!(error instanceof ThreadsApiError)) throw error;
        // One post Threads refuses outright must not block the queue: it goes to the back.
        if (error.kind !== 'rejected') throw new SyncStopped(`stopped: ${traced(error)}`);
        checked.push(thread.id);
        report(`${thread.permalink} could not be checked: ${traced(error)}`);
        continue;
      }
      if (typeof finding === 'object') {
        // The read already made carries a fresh picture address: the picture job need not ask again.
        const { imageUrl, imageExpiresAt } = pictureOf(finding);
        if (imageUrl && thread.imageUrl) await threads.setPicture(thread.id, { imageUrl, imageExpiresAt });
      }
      if (typeof finding === 'object' || finding === 'readable') {
        readable.push(thread.id);
        continue;
      }
      const at = now();
      const firstMiss = await threads.recordMissing(thread.id, at);
      const proof: DeletionProof | null =
        finding === 'gone'
          ? 'oembed'
          : firstMiss && at.getTime() - firstMiss.getTime() >= CONFIRM_AFTER_MS
            ? 'two_misses'
            : null;
      if (proof && hidden >= MAX_HIDES_PER_RUN) {
        // Left unchecked, so it is first in line next run.
        waiting += 1;
        continue;
      }
      checked.push(thread.id);
      if (proof && (await hide(thread, proof, firstMiss))) hidden += 1;
    }
  } catch (error) {
    if (!(error instanceof SyncStopped)) throw error;
    report(`${error.message}; the other approved posts are checked in a later run.`);
  } finally {
    await threads.markSeenAtSource(readable);
    await threads.touch(checked);
  }
  if (waiting > 0)
    report(
      `${waiting} more approved posts are confirmed gone at the source, but one run hides at most ` +
        `${MAX_HIDES_PER_RUN}: they are hidden by the next runs.`,
    );
  return hidden;
}
