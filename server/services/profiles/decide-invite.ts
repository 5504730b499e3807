import type { Database } from '../../db/client.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import { createDecisionNotices } from '../notices/decision-notices.ts';

export type InviteAction = 'approve' | 'reject';

/** Why an invite could not be decided: the user never asked, or someone decided first. */
export class InviteDecisionError extends Error {
  override name = 'InviteDecisionError';
  readonly reason: 'not-requested' | 'already-decided';
  constructor(reason: 'not-requested' | 'already-decided', message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Approves or rejects a pending invite request and records it in the audit log and the member's
 * notices, in one transaction (the admin API and `npm run admin` both decide through here). `actorUserId` is null when no
 * signed-in admin acted (the CLI). The caller announces the 'profiles' change after an approval.
 */
export async function decideInvite(
  db: Database,
  decision: {
    actorUserId: string | null;
    userId: string;
    action: InviteAction;
    details?: Record<string, unknown>;
  },
): Promise<'approved' | 'rejected'> {
  const profiles = createProfilesRepository(db);
  const audit = createAuditLogRepository(db);
  const notices = createDecisionNotices(db);
  const status = decision.action === 'reject' ? 'rejected' : 'approved';
  await db.transaction(async (tx) => {
    const decided = await profiles.decide(decision.userId, status, tx);
    if (!decided) {
      const profile = await profiles.findByUser(decision.userId, tx);
      throw profile
        ? new InviteDecisionError('already-decided', `This request was already decided (${profile.status}).`)
        : new InviteDecisionError('not-requested', 'This user has not asked for an invite.');
    }
    await audit.record(
      {
        actorUserId: decision.actorUserId,
        action: `user.${decision.action}`,
        subject: decision.userId,
        ...(decision.details ? { details: decision.details } : {}),
      },
      tx,
    );
    await notices.inviteDecided(decision.userId, status, tx);
  });
  return status;
}
