import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  chosenUsernameProblem,
  displayUsernameProblem,
  OwnProfileSchema,
  ProfileUpdateSchema,
  PublicProfileParamsSchema,
  PublicProfileSchema,
  USERNAME_MESSAGES,
  type OwnProfile,
  type PublicProfile,
} from '../../../contract/profile.ts';
import type { PostDisplay } from '../../../contract/threads-embed.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { createNameClashCheck } from '../../services/profiles/name-clash.ts';
import { collectionsOf } from '../../services/profiles/profile-collections.ts';
import { createProfilesRepository, type Profile } from '../../repositories/profiles.ts';
import type { User } from '../../repositories/users.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { toOwnProfile, toPublicProfile } from '../../views/profile-views.ts';
import meRoutes from './me.ts';
import gemRoutes from './gems.ts';
import { createPublicProfileCache } from './public-profile-cache.ts';

const PROFILE_NOT_FOUND = 'Profile not found';

/** The signed-in user's profile with their gems and approved own threads (profile-collections.ts). */
async function ownProfile(
  db: Database,
  user: User,
  profile: Profile,
  display: PostDisplay,
): Promise<OwnProfile> {
  return toOwnProfile({ profile, user }, await collectionsOf(db, user.id, display));
}

/** Invite requests and profiles: the signed-in user's own, and approved members' public ones. */
const userRoutes: FastifyPluginAsync<{
  db: Database;
  rateLimitMultiplier: number;
  postDisplay: PostDisplay;
}> = async (server, { db, rateLimitMultiplier, postDisplay }) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const ownProfileAnswer = { response: { 200: OwnProfileSchema } };
  const profiles = createProfilesRepository(db);
  const nameClash = createNameClashCheck(db);
  await app.register(meRoutes, { db });
  const cache = createPublicProfileCache();
  // A thread approved or hidden changes the gems and threads a public profile shows, too.
  app.onContentChanged(() => cache.clear());
  await app.register(gemRoutes, { db, rateLimitMultiplier, postDisplay });

  app.post(
    '/api/user/request-invite',
    {
      config: { access: 'user', rateLimit: limit('inviteRequest', rateLimitMultiplier) },
      schema: ownProfileAnswer,
    },
    async (request): Promise<OwnProfile> => {
      const user = await request.authUser();
      const existing = await profiles.findByUser(user.id);
      if (existing) return ownProfile(db, user, existing, postDisplay);
      // The Threads username is the first display name when it fits the rules and is free.
      const candidate = user.threadsUsername;
      const usable = chosenUsernameProblem(candidate) === null && (await nameClash(candidate, user)) === null;
      try {
        return ownProfile(
          db,
          user,
          await profiles.requestInvite(user.id, usable ? candidate : null),
          postDisplay,
        );
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return ownProfile(db, user, await profiles.requestInvite(user.id, null), postDisplay);
      }
    },
  );

  const own = { config: { access: 'user' as const }, schema: ownProfileAnswer };
  app.get('/api/user/profile', own, async (request): Promise<OwnProfile> => {
    const user = await request.authUser();
    const profile = await profiles.findByUser(user.id);
    if (!profile) throw new HttpError(404, PROFILE_NOT_FOUND);
    return ownProfile(db, user, profile, postDisplay);
  });

  app.put(
    '/api/user/profile',
    {
      config: { access: 'user', rateLimit: limit('profileUpdate', rateLimitMultiplier) },
      schema: { body: ProfileUpdateSchema, response: { 200: OwnProfileSchema } },
    },
    async (request): Promise<OwnProfile> => {
      const user = await request.authUser();
      const update = request.body;
      const profile = await profiles.findByUser(user.id);
      if (!profile) throw new HttpError(404, PROFILE_NOT_FOUND);
      if (profile.status !== 'approved') throw new HttpError(403, 'Only approved profiles can be edited.');
      // Another member's name, another person's handle, or a lookalike of either (decisions 028, 065);
      // one's own handle and its lookalikes stay allowed.
      const clash = await nameClash(update.display_username, user);
      if (clash) throw new HttpError(409, clash);
      try {
        const updated = await profiles.updateApproved(user.id, update.display_username, update.bio);
        if (!updated) throw new HttpError(403, 'Only approved profiles can be edited.');
        app.contentChanged('profiles');
        return ownProfile(db, user, updated, postDisplay);
      } catch (error) {
        // Two members claiming the same name, or lookalikes, at once: the unique indexes decide; the
        // check, asked again now that the other's write is in, says which refusal it was.
        if (isUniqueViolation(error))
          throw new HttpError(
            409,
            (await nameClash(update.display_username, user)) ?? USERNAME_MESSAGES.taken,
          );
        throw error;
      }
    },
  );

  const send = (reply: FastifyReply, body: string | null) => {
    if (body === null) throw new HttpError(404, PROFILE_NOT_FOUND);
    return reply.type('application/json; charset=utf-8').send(body);
  };
  // The answer is cached as the body it is sent as: a hot read sends the same string until a write.
  const lookUp = async (username: string): Promise<string | null> => {
    const generation = cache.generation();
    const found = await profiles.findApprovedByName(username);
    const profile: PublicProfile | null = found
      ? toPublicProfile(found, await collectionsOf(db, found.profile.userId, postDisplay))
      : null;
    const body = profile && JSON.stringify(profile);
    cache.set(username, body, generation);
    return body;
  };

  // Not async: a cached answer (the hot path) is sent without a promise. Its body is JSON already,
  // so the untyped instance sends it.
  server.get<{ Params: { username: string } }>(
    '/api/user/profile/:username',
    {
      config: { access: 'public' },
      schema: { params: PublicProfileParamsSchema, response: { 200: PublicProfileSchema } },
    },
    (request, reply) => {
      const { username } = request.params;
      if (displayUsernameProblem(username) !== null) throw new HttpError(404, PROFILE_NOT_FOUND);
      const cached = cache.get(username);
      if (cached !== undefined) return send(reply, cached);
      return lookUp(username).then((profile) => send(reply, profile));
    },
  );
};

export default userRoutes;
