import type { FastifyPluginAsync } from 'fastify';
import { MembershipSchema } from '../../../contract/membership.ts';
import type { Database } from '../../db/client.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import { toMembership } from '../../views/user-views.ts';

/** `GET /api/user/me`: the signed-in person's id, name, admin role and invite state, for the site's gating. */
const meRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  const profiles = createProfilesRepository(db);

  const schema = { response: { 200: MembershipSchema } };
  app.get('/api/user/me', { config: { access: 'user' }, schema }, async (request) => {
    const user = await request.authUser();
    const [admin, profile] = [await request.isAdmin(), await profiles.findByUser(user.id)];
    return toMembership(user, admin, profile);
  });
};

export default meRoutes;
