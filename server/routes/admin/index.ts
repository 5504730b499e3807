import type { FastifyPluginAsync } from 'fastify';
import {
  PendingUsersSchema,
  UserDecisionResultSchema,
  UserDecisionSchema,
} from '../../../contract/profile.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import { createUsersRepository } from '../../repositories/users.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { decideInvite, InviteDecisionError } from '../../services/profiles/decide-invite.ts';
import { toPendingUser } from '../../views/profile-views.ts';
import curatorRoutes from './curator.ts';

export interface AdminRoutesOptions {
  db: Database;
  tokenKey: Buffer;
  config: Pick<Config, 'curation' | 'adminUsernames'>;
}

/** The admin's review of invite requests (spec: dashboard, Pending Users), and the curation account. */
const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (server, { db, tokenKey, config }) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  await app.register(curatorRoutes, { db, tokenKey, config });
  const profiles = createProfilesRepository(db);
  const users = createUsersRepository(db);

  app.get(
    '/api/admin/pending-users',
    { config: { access: 'admin' }, schema: { response: { 200: PendingUsersSchema } } },
    async () => ({ users: (await profiles.listPending()).map(toPendingUser) }),
  );

  const decision = { body: UserDecisionSchema, response: { 200: UserDecisionResultSchema } };
  app.post('/api/admin/approve-user', { config: { access: 'admin' }, schema: decision }, async (request) => {
    const admin = await request.authUser();
    const { user_id: threadsUserId, action = 'approve' } = request.body;
    const subject = await users.findByThreadsUserId(threadsUserId);
    if (!subject) throw new HttpError(404, 'No such user.');
    const status = await decideInvite(db, { actorUserId: admin.id, userId: subject.id, action }).catch(
      (error: unknown) => {
        if (!(error instanceof InviteDecisionError)) throw error;
        throw new HttpError(error.reason === 'already-decided' ? 409 : 404, error.message);
      },
    );
    request.log.info({ adminId: admin.id, userId: subject.id, status }, 'invite decided');
    if (status === 'approved') app.contentChanged('profiles');
    return { success: true as const, status };
  });
};

export default adminRoutes;
