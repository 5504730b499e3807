import type { Database } from '../../db/client.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createCardConsentsRepository, type ConsentingAuthor } from '../../repositories/card-consents.ts';
import type { User } from '../../repositories/users.ts';

/** The consent as it stands after a change, and how many approved posts now look different in public. */
export interface CardConsentOutcome {
  shown: boolean;
  changedOnSite: number;
}

const authorOf = (user: User): ConsentingAuthor => ({
  threadsUserId: user.threadsUserId,
  username: user.threadsUsername,
  userId: user.id,
});

/**
 * 'Show my posts as cards' (decision 070): an author lets the public see their posts as our full
 * cards instead of Threads' embed. Each change is audited in the transaction that makes it.
 */
export function createCardConsent(db: Database) {
  const consents = createCardConsentsRepository(db);
  const audit = createAuditLogRepository(db);

  async function change(user: User, shown: boolean, tx: Database): Promise<CardConsentOutcome> {
    const author = authorOf(user);
    const changed = shown ? await consents.give(author, tx) : await consents.withdraw(author, tx);
    if (changed === null) return { shown, changedOnSite: 0 };
    await audit.record(
      {
        actorUserId: user.id,
        action: shown ? 'author.cards_on' : 'author.cards_off',
        subject: user.threadsUserId,
        details: { username: user.threadsUsername.toLowerCase(), changed_on_site: changed },
      },
      tx,
    );
    return { shown, changedOnSite: changed };
  }

  return {
    /** Whether the signed-in person has chosen cards. */
    async shown(user: User, tx: Database = db): Promise<boolean> {
      return consents.has(user.threadsUserId, tx);
    },

    /** Gives or withdraws the consent; inside `tx` when a larger write carries it (a submission). */
    async set(user: User, shown: boolean, tx?: Database): Promise<CardConsentOutcome> {
      return tx ? change(user, shown, tx) : db.transaction((inner) => change(user, shown, inner));
    },
  };
}
export type CardConsent = ReturnType<typeof createCardConsent>;
