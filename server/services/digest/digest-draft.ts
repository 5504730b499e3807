import {
  digestId,
  isoWeekOf,
  previousWeek,
  weekRange,
  type DigestDraft,
  type IsoWeek,
} from '../../../contract/digest.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createDigestsRepository, type DigestRow, type DigestThread } from '../../repositories/digests.ts';
import { createGeneratedPostsRepository, type GeneratedPostRow } from '../../repositories/generated-posts.ts';
import { createMailSendsRepository } from '../../repositories/mail-sends.ts';
import { createMailSubscribersRepository } from '../../repositories/mail-subscribers.ts';
import { excerpt, byline } from '../mail/compose.ts';

const HOUR_MS = 3_600_000;

/**
 * The digest the admin prepares now: last week's while it waits out DIGEST_HOLD_HOURS unpublished,
 * otherwise this week's, still filling.
 */
export async function draftWeek(db: Database, now = new Date()): Promise<IsoWeek> {
  const last = previousWeek(now);
  const row = await createDigestsRepository(db).find(digestId(last));
  return row?.publishedAt ? isoWeekOf(now) : last;
}

/** The digest being prepared, its row made if it has none yet (trim and note write to it). */
export async function draftRow(db: Database, now = new Date()): Promise<DigestRow> {
  const week = await draftWeek(db, now);
  return createDigestsRepository(db).ensure(digestId(week), week.year, week.week);
}

function items(threads: readonly DigestThread[], gems: Map<string, number>): DigestDraft['threads'] {
  return threads.map((thread) => ({
    id: thread.id,
    author: byline(thread),
    excerpt: excerpt(thread.text, 160),
    permalink: thread.permalink,
    gems: gems.get(thread.id) ?? 0,
  }));
}

/** `GET /api/admin/digest`: what the digest being prepared (`row`, read here when not given) holds and would send. */
export async function digestDraft(
  deps: { db: Database; config: Pick<Config, 'digest' | 'mail'> },
  row?: DigestRow,
): Promise<DigestDraft> {
  const { db, config } = deps;
  const digests = createDigestsRepository(db);
  row ??= await draftRow(db);
  const range = weekRange({ year: row.year, week: row.week });
  const chosen = await digests.select(range, row.excludedThreadIds, config.digest.size);
  const [threads, excluded] = await Promise.all([
    digests.threadsOf(chosen),
    digests.threadsOf(row.excludedThreadIds),
  ]);
  const gems = await digests.gemCounts([...chosen, ...row.excludedThreadIds]);
  const mailEnabled = config.mail.smtpUrl !== undefined;
  const lastPost = await createGeneratedPostsRepository(db).latestForDigest();
  return {
    id: row.id,
    week_start: range.start.toISOString(),
    publishes_at: new Date(range.end.getTime() + config.digest.holdHours * HOUR_MS).toISOString(),
    note: row.note,
    threads: items(threads, gems),
    excluded: items(excluded, gems),
    subscribers: mailEnabled ? await createMailSubscribersRepository(db).digestCount() : 0,
    mail_enabled: mailEnabled,
    mail: await createMailSendsRepository(db).counts(),
    threads_post: { enabled: config.digest.threadsPost, last: lastPost && toDigestPost(lastPost) },
  };
}

/** How the newest digest's post on Threads went, as the Digest tab shows it. */
function toDigestPost(row: GeneratedPostRow): NonNullable<DigestDraft['threads_post']['last']> {
  return { digest_id: row.digestId ?? '', status: row.status, thread_url: row.threadUrl, error: row.error };
}
