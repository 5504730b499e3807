import type { FastifyPluginAsync } from 'fastify';
import { UserDecisionSchema, type PendingUser } from '../../../contract/profile.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import { createUsersRepository } from '../../repositories/users.ts';
import { HttpError, parseBody } from '../../http/http-error.ts';
import { toPendingUser } from '../../views/profile-views.ts';
import curatorRoutes from './curator.ts';

export interface AdminRoutesOptions {
  db: Database;
  tokenKey: Buffer;
  config: Pick<Config, 'curation' | 'adminUsernames'>;
}

/** The admin's review of invite requests (spec: dashboard, Pending Users), and the curation account. */
const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, { db, tokenKey, config }) => {
  await app.register(curatorRoutes, { db, tokenKey, config });
  const profiles = createProfilesRepository(db);
  const users = createUsersRepository(db);
  const audit = createAuditLogRepository(db);

  app.get(
    '/api/admin/pending-users',
    { config: { access: 'admin' } },
    async (): Promise<{ users: PendingUser[] }> => {
      return { users: (await profiles.listPending()).map(toPendingUser) };
    },
  );

  app.post('/api/admin/approve-user', { config: { access: 'admin' } }, async (request) => {
    const admin = await request.authUser();
    const { user_id: threadsUserId, action = 'approve' } = parseBody(UserDecisionSchema, request.body);
    const subject = await users.findByThreadsUserId(threadsUserId);
    if (!subject) throw new HttpError(404, 'No such user.');
    const status = action === 'reject' ? 'rejected' : 'approved';
    await db.transaction(async (tx) => {
      const decided = await profiles.decide(subject.id, status, tx);
      if (!decided) {
        const profile = await profiles.findByUser(subject.id, tx);
        throw profile
          ? new HttpError(409, `This request was already decided (${profile.status}).`)
          : new HttpError(404, 'This user has not asked for an invite.');
      }
      await audit.record({ actorUserId: admin.id, action: `user.${action}`, subject: subject.id }, tx);
    });
    request.log.info({ adminId: admin.id, userId: subject.id, status }, 'invite decided');
    if (status === 'approved') app.contentChanged('profiles');
    return { success: true, status };
  });
};

export default adminRoutes;
