import { mailLinkParts } from '../../../contract/digest.ts';
import type { Database } from '../../db/client.ts';
import { createMailSendsRepository } from '../../repositories/mail-sends.ts';
import { createMailSubscribersRepository } from '../../repositories/mail-subscribers.ts';
import { mailLinkValid, type MailLinkPurpose } from '../mail/links.ts';

/**
 * Asks for the digest at `email` (decision 054) and queues the confirmation mail, in one
 * transaction. An address asking again the same day gets no second mail; a confirmed one gets none.
 * The caller answers the same words whatever happened, so nobody learns which addresses are known.
 */
export async function subscribeToDigest(db: Database, email: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const subscriber = await createMailSubscribersRepository(db).subscribeDigest(email, tx);
    if (subscriber.confirmedAt) return;
    const day = now.toISOString().slice(0, 10);
    await createMailSendsRepository(db).enqueue(
      { kind: 'confirm', dedupeKey: `confirm:${subscriber.id}:${day}`, subscriberId: subscriber.id },
      tx,
    );
  });
}

/** What a signed link did: done, or not valid (bad signature, or no such subscription any more). */
export type LinkOutcome = 'done' | 'invalid';

/** Follows a mailed link (confirm or unsubscribe) once its signature checks out. */
export async function followMailLink(
  db: Database,
  tokenKey: Buffer,
  purpose: MailLinkPurpose,
  query: { s?: string | undefined; t?: string | undefined },
): Promise<LinkOutcome> {
  const link = mailLinkParts(query);
  if (!link || !mailLinkValid(tokenKey, purpose, link.s, link.t)) return 'invalid';
  const subscribers = createMailSubscribersRepository(db);
  if (purpose === 'confirm') return (await subscribers.confirm(link.s)) ? 'done' : 'invalid';
  // Unsubscribing twice (a mail app's one click, then the page) is still done: the address is gone.
  const subscriber = await subscribers.find(link.s);
  if (subscriber) await db.transaction((tx) => subscribers.unsubscribeDigest(link.s, tx));
  return 'done';
}
