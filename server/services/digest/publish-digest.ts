import { digestId, digestPath, previousWeek, weekRange } from '../../../contract/digest.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createDigestsRepository } from '../../repositories/digests.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { createMailSendsRepository } from '../../repositories/mail-sends.ts';
import { composeDigestPost } from '../publishing/publish-generated-posts.ts';

export interface DigestPublication {
  id: string;
  /** False when it was published before (by another instance, or an earlier run). */
  published: boolean;
  threads: number;
  /** Digest mails queued by this publication. */
  queued: number;
  /** Whether it queued the curator's post of its link on Threads (DIGEST_THREADS_POST). */
  threadsPost: boolean;
}

const HOUR_MS = 3_600_000;
/**
 * The curator's post waits this long after publication: the digest's page is rendered by the next
 * publish (and deployed, on a CDN), and Threads fetches the link's preview when the post is made.
 */
export const DIGEST_POST_DELAY_MS = 10 * 60_000;

/**
 * The `publish-digest` job (issue 22): once last week has ended and DIGEST_HOLD_HOURS have passed
 * (the admin's time to trim it and write a note), freezes last week's digest and queues its mail to
 * every confirmed subscriber and, with DIGEST_THREADS_POST, the curator's post of its link, in one
 * transaction. Null while it is not due yet. Publishing twice,
 * from two instances or after a restart, publishes and queues once.
 */
export async function publishDueDigest(
  deps: { db: Database; config: Pick<Config, 'digest' | 'mail' | 'publicUrl'> },
  now = new Date(),
): Promise<DigestPublication | null> {
  const week = previousWeek(now);
  const range = weekRange(week);
  if (now.getTime() < range.end.getTime() + deps.config.digest.holdHours * HOUR_MS) return null;
  const id = digestId(week);
  const digests = createDigestsRepository(deps.db);
  return deps.db.transaction(async (tx) => {
    const digest = await digests.ensure(id, week.year, week.week, tx);
    if (digest.publishedAt)
      return { id, published: false, threads: digest.threadIds?.length ?? 0, queued: 0, threadsPost: false };
    const threadIds = await digests.select(range, digest.excludedThreadIds, deps.config.digest.size, tx);
    if (!(await digests.publish(id, threadIds, tx)))
      return { id, published: false, threads: threadIds.length, queued: 0, threadsPost: false };
    // Without SMTP_URL nothing could send them; an empty week sends nothing either.
    const queued =
      deps.config.mail.smtpUrl && threadIds.length > 0
        ? await createMailSendsRepository(deps.db).enqueueDigest(id, tx)
        : 0;
    const threadsPost =
      deps.config.digest.threadsPost && threadIds.length > 0
        ? (await createGeneratedPostsRepository(deps.db).create(
            {
              digestId: id,
              content: composeDigestPost(
                week,
                threadIds.length,
                new URL(digestPath(id), deps.config.publicUrl).href,
              ),
              nextAttemptAt: new Date(now.getTime() + DIGEST_POST_DELAY_MS),
            },
            tx,
          )) !== null
        : false;
    return { id, published: true, threads: threadIds.length, queued, threadsPost };
  });
}
