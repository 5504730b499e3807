import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createThreadsRepository, type ThreadRow } from '../../repositories/threads.ts';
import { ThreadsApiError, type ThreadsPost } from '../../threads/gateway.ts';
import { createDecisionNotices } from '../notices/decision-notices.ts';
import { pictureOf } from '../publishing/post-to-thread.ts';
import { createTokenStore, type TokenHolder } from '../tokens/token-store.ts';
import type { CurationDeps, RunState } from './run-context.ts';

/** How many approved posts one run re-checks at the source. */
const RECHECK_PER_RUN = 100;
/**
 * The most approved posts one run may hide. Many posts vanishing at once is more likely a change
 * at Meta (an access level, an outage) than many authors deleting: the rest wait for the next run.
 */
export const MAX_HIDES_PER_RUN = 10;
/** An own post missing at two checks at least this far apart is confirmed deleted by its author. */
export const CONFIRM_AFTER_MS = 24 * 3_600_000;

/** Thrown to stop the sync: the message says why, for the run's errors. */
class SyncStopped extends Error {}

/** Where a Threads failure can be traced: Meta's id of the failed call, when it sent one. */
function traced(error: ThreadsApiError): string {
  return error.fbtraceId ? `${error.message} (fbtrace_id ${error.fbtraceId})` : error.message;
}

/**
 * Re-checks approved posts at the source (decision 069, amending 026). oEmbed is never asked: Meta
 * allows it only to render an embed. A member's own post is read with the member's own token
 * (`GET /{media-id}` on a post you own, threads-api.md section 2); Threads answering that it does
 * not exist (code 100, subcode 33) at two checks a day apart hides it. Anyone else's post is read
 * with the curator's token, which is UNCONFIRMED (section 2: whether `GET /{media-id}` works for
 * media you do not own; with standard access it never does, section 10), so a miss is only
 * recorded, never a hide: those leave by their author's 'Remove this post' or an admin. At most
 * MAX_HIDES_PER_RUN hides a run, each audited in the transaction of its status change. A throttled or
 * unavailable Threads call, or a refused curator token, stops the sync; a refused member token only
 * skips that member's posts. Returns how many it hid.
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
  // Own posts are collected only for approved members with a working token: the same ones check them.
  const owners = new Map<string, TokenHolder>();
  if (due.some((thread) => thread.ownerUserId))
    for (const holder of await createTokenStore(deps).membersWithTokens()) owners.set(holder.user.id, holder);
  const ownersRefused = new Set<string>();
  const readable: string[] = [];
  const checked: string[] = [];
  let hidden = 0;
  let waiting = 0;
  let unchecked = 0;

  const report = (line: string) => {
    errors.push(`Deletion sync: ${line}`);
    say(`! ${errors.at(-1)}`);
  };

  async function hide(thread: ThreadRow, firstMiss: Date | null): Promise<boolean> {
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
            confirmedBy: 'two_misses',
            checkedWith: 'owner_token',
            mediaId: thread.mediaId,
            permalink: thread.permalink,
            missingSince: firstMiss?.toISOString() ?? null,
          },
        },
        tx,
      );
      return true;
    });
    if (done) say(`Hidden, deleted by its author (missing for over a day): ${thread.permalink}`);
    return done;
  }

  try {
    for (const thread of due) {
      if (!thread.mediaId) continue;
      const owner = thread.ownerUserId ? owners.get(thread.ownerUserId) : undefined;
      if (thread.ownerUserId && (!owner || ownersRefused.has(thread.ownerUserId))) {
        // No token of its author to ask with: nothing is learnt, nothing is hidden (fail safe).
        unchecked += 1;
        checked.push(thread.id);
        continue;
      }
      let post: ThreadsPost | null;
      try {
        post = await deps.gateway.post(owner?.token ?? token, thread.mediaId);
      } catch (error) {
        if (!(error instanceof ThreadsApiError)) throw error;
        // Throttling, an outage or a refused curator token: every later call would fail the same way.
        if (error.temporary || (!owner && error.kind !== 'rejected'))
          throw new SyncStopped(`stopped: ${traced(error)}`);
        checked.push(thread.id);
        if (owner && error.kind !== 'rejected') {
          // A member's refused token says nothing about the others' posts: only theirs wait.
          ownersRefused.add(owner.user.id);
          report(`@${owner.user.threadsUsername}'s token could not check their posts: ${traced(error)}`);
        } else {
          // One post Threads refuses outright must not block the queue: it goes to the back.
          report(`${thread.permalink} could not be checked: ${traced(error)}`);
        }
        continue;
      }
      if (post) {
        // The read already made carries a fresh picture address: the picture job need not ask again.
        const { imageUrl, imageExpiresAt } = pictureOf(post);
        if (imageUrl && thread.imageUrl) await threads.setPicture(thread.id, { imageUrl, imageExpiresAt });
        readable.push(thread.id);
        continue;
      }
      const at = now();
      const firstMiss = await threads.recordMissing(thread.id, at);
      // Own post, own token: documented (threads-api.md section 2), so Threads saying it does not
      // exist, twice a day apart, is its author's deletion. Anyone else's post: UNCONFIRMED whether
      // the curator's token may read it at all (section 2), so the miss is recorded and never hides.
      const confirmed =
        owner !== undefined && firstMiss !== null && at.getTime() - firstMiss.getTime() >= CONFIRM_AFTER_MS;
      if (confirmed && hidden >= MAX_HIDES_PER_RUN) {
        // Left unchecked, so it is first in line next run.
        waiting += 1;
        continue;
      }
      checked.push(thread.id);
      if (confirmed && (await hide(thread, firstMiss))) hidden += 1;
    }
  } catch (error) {
    if (!(error instanceof SyncStopped)) throw error;
    report(`${error.message}; the other approved posts are checked in a later run.`);
  } finally {
    await threads.markSeenAtSource(readable);
    await threads.touch(checked);
  }
  if (unchecked > 0)
    say(`${unchecked} members' posts were not checked: their authors have no working token.`);
  if (waiting > 0)
    report(
      `${waiting} more approved posts are confirmed gone at the source, but one run hides at most ` +
        `${MAX_HIDES_PER_RUN}: they are hidden by the next runs.`,
    );
  return hidden;
}
