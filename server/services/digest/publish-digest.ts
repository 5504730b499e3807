import { digestId, previousWeek, weekRange } from '../../../contract/digest.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createDigestsRepository } from '../../repositories/digests.ts';
import { createMailSendsRepository } from '../../repositories/mail-sends.ts';

export interface DigestPublication {
  id: string;
  /** False when it was published before (by another instance, or an earlier run). */
  published: boolean;
  threads: number;
  /** Digest mails queued by this publication. */
  queued: number;
}

const HOUR_MS = 3_600_000;

/**
 * The `publish-digest` job (issue 22): once last week has ended and DIGEST_HOLD_HOURS have passed
 * (the admin's time to trim it and write a note), freezes last week's digest and queues its mail to
 * every confirmed subscriber, in one transaction. Null while it is not due yet. Publishing twice,
 * from two instances or after a restart, publishes and queues once.
 */
export async function publishDueDigest(
  deps: { db: Database; config: Pick<Config, 'digest' | 'mail'> },
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
      return { id, published: false, threads: digest.threadIds?.length ?? 0, queued: 0 };
    const threadIds = await digests.select(range, digest.excludedThreadIds, deps.config.digest.size, tx);
    if (!(await digests.publish(id, threadIds, tx)))
      return { id, published: false, threads: threadIds.length, queued: 0 };
    // Without SMTP_URL nothing could send them; an empty week sends nothing either.
    const queued =
      deps.config.mail.smtpUrl && threadIds.length > 0
        ? await createMailSendsRepository(deps.db).enqueueDigest(id, tx)
        : 0;
    return { id, published: true, threads: threadIds.length, queued };
  });
}
