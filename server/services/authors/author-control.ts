import { AUTHOR_POSTS_MAX, type AuthorOverview, type AuthorPost } from '../../../contract/authors.ts';
import type { PostDisplay } from '../../../contract/threads-embed.ts';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../../http/http-error.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createAuthorOptOutsRepository } from '../../repositories/author-opt-outs.ts';
import { createThreadsRepository, type AuthorIdentity, type ThreadRow } from '../../repositories/threads.ts';
import type { User } from '../../repositories/users.ts';
import type { ContentChange } from '../content-change.ts';
import { createCardConsent } from './card-consent.ts';
import { createDecisionNotices } from '../notices/decision-notices.ts';
import { toAuthorOverview, toAuthorPost } from '../../views/author-views.ts';

/** What a removal or a restore did, and what it changed in public: null when nothing public changed. */
export interface AuthorPostOutcome {
  post: AuthorPost;
  change: ContentChange | null;
}

/** How the catalogue tells a signed-in person's posts (decision 028). */
function identityOf(user: User): AuthorIdentity {
  return { username: user.threadsUsername, userId: user.id };
}

/**
 * What a post in this status shows in public: an approved one is on the site (a rebuild), a rejected
 * one in the moderation log (its cache); the others are shown nowhere.
 */
function publicChange(status: ThreadRow['status'] | null): ContentChange | null {
  if (status === 'approved') return 'threads';
  if (status === 'rejected') return 'decisions';
  return null;
}

/**
 * Authors in control (issue 18): any signed-in person sees which of their posts the catalogue holds,
 * removes or restores one, and opts out of curation or back in; each act is audited in its transaction.
 */
export function createAuthorControl(db: Database, { postDisplay }: { postDisplay: PostDisplay }) {
  const threads = createThreadsRepository(db);
  const cards = createCardConsent(db);
  const optOuts = createAuthorOptOutsRepository(db);
  const audit = createAuditLogRepository(db);
  const notices = createDecisionNotices(db);

  /** Refuses a post that is not the author's (404, as for an unknown id: no one learns of others' posts). */
  async function refuseUnless(
    row: ThreadRow | null,
    id: string,
    user: User,
    tx: Database,
  ): Promise<ThreadRow> {
    if (row) return row;
    const mine = await threads.findOfAuthor(id, identityOf(user), tx);
    if (!mine) throw new HttpError(404, 'The catalogue holds no post of yours with this id.');
    throw new HttpError(
      409,
      mine.status === 'removed' ? 'This post is already removed.' : 'This post is not removed.',
    );
  }

  return {
    /** The signed-in person's posts in the catalogue (every status, newest first) and their opt-out. */
    async overview(user: User): Promise<AuthorOverview> {
      const rows = await threads.listByAuthor(identityOf(user), AUTHOR_POSTS_MAX);
      const optOut = await optOuts.find(user.threadsUserId);
      const shown = await cards.shown(user);
      return toAuthorOverview(user.threadsUsername, optOut, { shown, display: postDisplay }, rows);
    },

    /** 'Remove this post': out of the catalogue, the queue and the log, whatever its status was. */
    async remove(user: User, id: string): Promise<AuthorPostOutcome> {
      return db.transaction(async (tx) => {
        const row = await refuseUnless(await threads.removeByAuthor(id, identityOf(user), tx), id, user, tx);
        const before = row.statusBeforeRemoval;
        // Only an approved post was anyone's gem on show; the gems stay stored for a restore.
        if (before === 'approved') await notices.gemsLeft(row, 'removed_by_author', tx);
        await audit.record(
          { actorUserId: user.id, action: 'author.remove', subject: id, details: { from: before } },
          tx,
        );
        return { post: toAuthorPost(row), change: publicChange(before) };
      });
    },

    /** 'Restore': back to the status it had when its author removed it. */
    async restore(user: User, id: string): Promise<AuthorPostOutcome> {
      return db.transaction(async (tx) => {
        const row = await refuseUnless(await threads.restoreByAuthor(id, identityOf(user), tx), id, user, tx);
        await audit.record(
          { actorUserId: user.id, action: 'author.restore', subject: id, details: { to: row.status } },
          tx,
        );
        return { post: toAuthorPost(row), change: publicChange(row.status) };
      });
    },

    /**
     * 'Never curate me': recorded once, and every post of theirs waiting for review leaves the queue
     * (removed, so the author can restore it). Returns how many left.
     */
    async optOut(user: User): Promise<number> {
      return db.transaction(async (tx) => {
        if (!(await optOuts.add(user.threadsUserId, user.threadsUsername, tx))) return 0;
        const removed = await threads.removePendingOfAuthor(identityOf(user), tx);
        await audit.record(
          {
            actorUserId: user.id,
            action: 'author.opt_out',
            subject: user.threadsUserId,
            details: { username: user.threadsUsername.toLowerCase(), removed_from_queue: removed },
          },
          tx,
        );
        return removed.length;
      });
    },

    /** 'Allow curation again': later results may reach the queue; removed posts stay removed. */
    async optIn(user: User): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await optOuts.remove(user.threadsUserId, tx))) return;
        await audit.record(
          {
            actorUserId: user.id,
            action: 'author.opt_in',
            subject: user.threadsUserId,
            details: { username: user.threadsUsername.toLowerCase() },
          },
          tx,
        );
      });
    },
  };
}
export type AuthorControl = ReturnType<typeof createAuthorControl>;
