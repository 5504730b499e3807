import type { FastifyPluginAsync, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.ts';
import { createProfilesRepository } from '../repositories/profiles.ts';
import { createRoleBindingsRepository } from '../repositories/role-bindings.ts';
import type { User } from '../repositories/users.ts';
import { HttpError } from '../http/http-error.ts';

/** Who may call a route: anyone, a signed-in user, a member (approved profile, or an admin), or an admin. */
export type Access = 'public' | 'user' | 'member' | 'admin';

/** The refusal of a 'member' route to a signed-in user whose profile is not approved. */
export const MEMBERS_ONLY =
  'Only approved members can submit threads. Request an invite, and submit once it is approved.';

/** One API route as registered: what the authorization and CSRF test matrices are generated from. */
export interface ApiRoute {
  method: string;
  url: string;
  access: Access;
  crossSite: boolean;
  /** Its params, query, body and responses (zod schemas): the OpenAPI document reads them. */
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its access rule, in registration order. */
    apiRoutes: ApiRoute[];
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    /** The signed-in user of a 'user', 'member' or 'admin' route (checked before the handler runs). */
    authUser(): Promise<User>;
    /** Whether the signed-in user is an admin now (401 when signed out). */
    isAdmin(): Promise<boolean>;
    /** Whether the signed-in user passes a 'member' route (approved profile, or admin); false when signed out. */
    isMember(): Promise<boolean>;
  }
}

export interface AccessOptions {
  db: Database;
  /** Lower-case Threads usernames that are admins by configuration (bound to a user id at sign-in). */
  adminUsernames: readonly string[];
}

/**
 * Whether a user is an admin now: granted in the database (`npm run admin`), or bound at their first
 * sign-in to a username ADMIN_THREADS_USERNAMES still lists. Never by the username they have now:
 * it can change hands on Threads.
 */
export async function isAdmin(user: User, adminUsernames: readonly string[], db: Database): Promise<boolean> {
  if (user.isAdmin) return true;
  return createRoleBindingsRepository(db).holds('admin', adminUsernames, user.threadsUserId);
}

/**
 * Deny by default: every /api route declares its access in `config.access`, or the server refuses to
 * start. Roles are read on every request (from the database and the configuration), so a change takes
 * effect on the next request.
 */
const access: FastifyPluginAsync<AccessOptions> = async (app, { db, adminUsernames }) => {
  const profiles = createProfilesRepository(db);
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);

  async function checkAccess(request: FastifyRequest): Promise<void> {
    const rule = request.routeOptions.config.access;
    if (!rule || rule === 'public') return;
    const user = await request.authUser();
    if (rule === 'user' || (await isAdmin(user, adminUsernames, db))) return;
    if (rule === 'admin') {
      request.log.warn({ userId: user.id, route: request.routeOptions.url }, 'admin route refused');
      throw new HttpError(403, 'Only administrators can do this.');
    }
    if ((await profiles.findByUser(user.id))?.status !== 'approved') throw new HttpError(403, MEMBERS_ONLY);
  }

  app.addHook('onRoute', (route) => {
    const rule = route.config?.access;
    // Checked first, before the route's schemas validate the request (a stranger learns nothing of
    // a body's rules) and before its own hooks; public routes (the hot reads) skip the hook.
    if (rule && rule !== 'public') {
      const own = route.preValidation ? [route.preValidation].flat() : [];
      if (!own.includes(checkAccess)) route.preValidation = [checkAccess, ...own];
    }
    if (!route.url.startsWith('/api/')) return;
    if (!rule) throw new Error(`Route ${route.method} ${route.url} declares no access rule (config.access).`);
    for (const method of [route.method].flat()) {
      const crossSite = route.config?.crossSite === true;
      apiRoutes.push({ method, url: route.url, access: rule, crossSite, schema: route.schema });
    }
  });

  app.decorateRequest('authUser', async function (this: FastifyRequest) {
    const user = await this.currentUser();
    if (!user) throw new HttpError(401, 'You are not signed in.');
    return user;
  });
  app.decorateRequest('isAdmin', async function (this: FastifyRequest) {
    return isAdmin(await this.authUser(), adminUsernames, db);
  });

  app.decorateRequest('isMember', async function (this: FastifyRequest) {
    const user = await this.currentUser();
    if (!user) return false;
    return (
      (await isAdmin(user, adminUsernames, db)) || (await profiles.findByUser(user.id))?.status === 'approved'
    );
  });
};

export default fp(access, { name: 'access', dependencies: ['session'] });
