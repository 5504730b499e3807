import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createDigestsRepository, type DigestRow } from '../../repositories/digests.ts';
import { createMailSendsRepository, type MailSendRow } from '../../repositories/mail-sends.ts';
import { createMailSubscribersRepository, type SubscriberRow } from '../../repositories/mail-subscribers.ts';
import { toThreadCard } from '../../views/thread-views.ts';
import { confirmMail, digestMail, type DigestMailItem, type Mail } from './compose.ts';
import { mailLinkUrl } from './links.ts';
import {
  noticeMailContext,
  prepareNoticeMail,
  type NoticeMailContext,
  type Prepared,
} from './send-notice.ts';
import type { MailTransport } from './transport.ts';

export interface MailDeps {
  db: Database;
  config: Pick<Config, 'mail' | 'publicUrl' | 'apiBaseUrl' | 'publicPostDisplay'>;
  /** Keys the links' signatures (links.ts). */
  tokenKey: Buffer;
  transport: MailTransport;
}

export interface SendSummary {
  sent: number;
  /** Failed tries queued again. */
  retried: number;
  /** Given up: too many tries, nothing to send any more, or interrupted mid-send. */
  failed: number;
}

/** Tries before a message is given up; the waits between them double from 2 minutes. */
export const MAX_ATTEMPTS = 5;
const BATCH = 20;
/** A run sends at most this many: the job comes back a minute later for the rest. */
const MAX_PER_RUN = 200;
/** Long enough for a slow SMTP server; a lease that runs out marks the message interrupted. */
const LEASE_MS = 5 * 60_000;

/** Why a claimed message has nothing to send, or null when it can go. */
function nothingToSend(row: MailSendRow, subscriber: SubscriberRow | null): string | null {
  if (!subscriber) return 'the address unsubscribed before it was sent';
  if (row.kind !== 'confirm' && !subscriber.confirmedAt) return 'the address is not confirmed';
  if (row.kind === 'digest' && !subscriber.digest) return 'the address stopped the digest before it was sent';
  return null;
}

/** What one run reads once and reuses for every message: repositories, and each digest's content. */
interface RunContext {
  deps: MailDeps;
  sends: ReturnType<typeof createMailSendsRepository>;
  subscribers: ReturnType<typeof createMailSubscribersRepository>;
  digests: ReturnType<typeof createDigestsRepository>;
  /** A digest's row and threads, read once per run however many subscribers it goes to. */
  digestContent: Map<string, Promise<{ digest: DigestRow; items: DigestMailItem[] } | string>>;
  notices: NoticeMailContext;
}

/** A digest's row and threads, or why there is nothing to send. */
async function readDigest(run: RunContext, id: string) {
  const digest = await run.digests.find(id);
  if (!digest?.publishedAt || !digest.threadIds) return 'its digest is not published';
  const rows = await run.digests.threadsOf(digest.threadIds);
  // Each thread as the public sees it (decision 070): the card's display decides what the mail may copy.
  const display = run.deps.config.publicPostDisplay;
  const items = rows.map((row) => ({ ...row, display: toThreadCard(row, { display }).display }));
  return items.length > 0 ? { digest, items } : 'its digest has no thread left in the catalogue';
}

async function compose(run: RunContext, row: MailSendRow, subscriber: SubscriberRow): Promise<Mail | string> {
  const { deps } = run;
  const api = new URL(String(deps.config.apiBaseUrl ?? deps.config.publicUrl));
  if (row.kind === 'confirm') return confirmMail(mailLinkUrl(api, 'confirm', deps.tokenKey, subscriber.id));
  if (!row.digestId) return 'its digest is not published';
  let content = run.digestContent.get(row.digestId);
  if (!content) {
    content = readDigest(run, row.digestId);
    run.digestContent.set(row.digestId, content);
  }
  const found = await content;
  if (typeof found === 'string') return found;
  return digestMail(found.digest, found.items, {
    site: deps.config.publicUrl,
    unsubscribe: mailLinkUrl(api, 'unsubscribe', deps.tokenKey, subscriber.id),
  });
}

/** A digest subscriber's message (decision 054): its address and mail, or why there is nothing to send. */
async function prepareDigestMail(run: RunContext, row: MailSendRow): Promise<Prepared | string> {
  const subscriber = row.subscriberId ? await run.subscribers.find(row.subscriberId) : null;
  const skip = nothingToSend(row, subscriber);
  if (skip !== null || !subscriber) return skip ?? 'nothing to send';
  const mail = await compose(run, row, subscriber);
  return typeof mail === 'string' ? mail : { to: subscriber.email, mail };
}

/** One claimed message: sent and marked sent, or its failure recorded. */
async function sendOne(run: RunContext, row: MailSendRow, summary: SendSummary): Promise<void> {
  const { deps, sends } = run;
  const prepared =
    row.kind === 'notice' || row.kind === 'notice_confirm'
      ? await prepareNoticeMail(run.notices, row)
      : await prepareDigestMail(run, row);
  if (typeof prepared === 'string') {
    await sends.markFailedTry(row.id, prepared, null);
    summary.failed++;
    return;
  }
  const { to, mail } = prepared;
  const messageId = `<ct-${row.id}-${randomBytes(6).toString('hex')}@${deps.config.publicUrl.hostname}>`;
  try {
    await deps.transport.send({ ...mail, from: deps.config.mail.from, to, messageId });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const retry = row.attempts < MAX_ATTEMPTS ? new Date(Date.now() + 2 ** row.attempts * 60_000) : null;
    await sends.markFailedTry(row.id, reason.slice(0, 500), retry);
    if (retry) summary.retried++;
    else summary.failed++;
    return;
  }
  await sends.markSent(row.id, messageId);
  summary.sent++;
}

/**
 * The `send-mail` job (decision 054): gives up messages interrupted mid-send, then claims due
 * messages a batch at a time and sends them. Safe on several instances at once: a message is
 * claimed by one, and a claimed message is never sent by another.
 */
export async function sendQueuedMail(deps: MailDeps): Promise<SendSummary> {
  const run: RunContext = {
    deps,
    sends: createMailSendsRepository(deps.db),
    subscribers: createMailSubscribersRepository(deps.db),
    digests: createDigestsRepository(deps.db),
    digestContent: new Map(),
    notices: noticeMailContext(deps),
  };
  const { sends } = run;
  const summary: SendSummary = { sent: 0, retried: 0, failed: await sends.failInterrupted() };
  for (let handled = 0; handled < MAX_PER_RUN;) {
    const batch = await sends.claim(BATCH, LEASE_MS);
    if (batch.length === 0) break;
    for (const row of batch) await sendOne(run, row, summary);
    handled += batch.length;
  }
  return summary;
}
