import type { FastifyPluginAsync } from 'fastify';
import type { Membership } from '../../../contract/membership.ts';
import type { Database } from '../../db/client.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import { toMembership } from '../../views/user-views.ts';

/** `GET /api/user/me`: the signed-in person's id, name, admin role and invite state, for the site's gating. */
const meRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  const profiles = createProfilesRepository(db);

  app.get('/api/user/me', { config: { access: 'user' } }, async (request): Promise<Membership> => {
    const user = await request.authUser();
    const [admin, profile] = [await request.isAdmin(), await profiles.findByUser(user.id)];
    return toMembership(user, admin, profile);
  });
};

export default meRoutes;
