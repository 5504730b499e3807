import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import {
  AuthConfigSchema,
  CallbackRequestSchema,
  CallbackResponseSchema,
  RefreshResponseSchema,
  SuccessSchema,
  VerifyResponseSchema,
  type AuthConfig,
} from '../../../contract/auth.ts';
import { TEXTS } from '../../../contract/texts.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createCurationRunsRepository } from '../../repositories/curation-runs.ts';
import { refreshStoredToken } from '../../services/tokens/refresh-tokens.ts';
import { createTokenStore } from '../../services/tokens/token-store.ts';
import { createAuthorOptOutsRepository } from '../../repositories/author-opt-outs.ts';
import { createCardConsentsRepository } from '../../repositories/card-consents.ts';
import { createRoleBindingsRepository, type BoundRole } from '../../repositories/role-bindings.ts';
import { createUsersRepository, type User } from '../../repositories/users.ts';
import { ThreadsApiError, type ThreadsGateway } from '../../threads/gateway.ts';
import { CURATOR_SCOPES, MEMBER_SCOPES, type ThreadsSettings } from '../../threads/settings.ts';
import { isAdmin } from '../../plugins/access.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { HttpError } from '../../http/http-error.ts';
import { jsonText, type ZodTypeProvider } from '../../http/route-schemas.ts';
import { toAuthUser } from '../../views/user-views.ts';

export interface AuthRoutesOptions {
  config: Config;
  settings: ThreadsSettings;
  gateway: ThreadsGateway;
  db: Database;
  tokenKey: Buffer;
  /**
   * Starts a curation run (under the job lock) when an admin signs in and no run has reached Threads
   * yet, so a fresh install fills its queue at once; null turns it off (tests run jobs themselves).
   */
  firstRun?: (() => Promise<unknown>) | null;
}

/** Turns a failed Threads call during sign-in into a message the callback page can show. */
function signInError(error: unknown): HttpError {
  // Throttling is Threads asking us to slow down (already retried): never "sign in again".
  if (error instanceof ThreadsApiError && error.kind === 'throttled') {
    return new HttpError(503, 'Threads is busy, try again in a minute.', { 'Retry-After': '60' });
  }
  if (error instanceof ThreadsApiError && error.kind === 'unavailable') {
    return new HttpError(502, 'Threads did not respond. Please try signing in again in a moment.');
  }
  if (error instanceof ThreadsApiError) {
    return new HttpError(
      400,
      'Threads did not accept this sign-in (the code may have expired or been used). Please sign in again.',
    );
  }
  throw error;
}

/** The roles configuration grants this Threads username (bound to whoever signs in with it first). */
function configuredRoles(config: Config, username: string): BoundRole[] {
  const name = username.toLowerCase();
  const roles: BoundRole[] = [];
  if (config.adminUsernames.includes(name)) roles.push('admin');
  if (config.curation.curatorUsername === name) roles.push('curator');
  return roles;
}

/**
 * The scopes a new token was granted, as debug_token reports them. A failed check must not fail the
 * sign-in: the token then counts as threads_basic only (the one scope every grant has), and the
 * curation account panel shows the rest as missing until the next sign-in.
 */
async function grantedScopes(
  gateway: ThreadsGateway,
  accessToken: string,
  accountId: string,
  log: FastifyBaseLogger,
): Promise<string[]> {
  try {
    const info = await gateway.debugToken(accessToken);
    if (info.userId && info.userId !== accountId) {
      log.warn({ threadsUserId: accountId }, 'debug_token named another user: scopes not trusted');
      return [...MEMBER_SCOPES];
    }
    return info.scopes.includes('threads_basic') ? info.scopes : ['threads_basic', ...info.scopes];
  } catch (error) {
    if (!(error instanceof ThreadsApiError)) throw error;
    log.warn(
      { threadsUserId: accountId, kind: error.kind, fbtraceId: error.fbtraceId },
      'debug_token failed at sign-in: the token counts as threads_basic only',
    );
    return [...MEMBER_SCOPES];
  }
}

/** Sign-in with Threads and the session around it (spec sections 2, 5, 7; DESIGN sections 5 and 7). */
const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (
  server,
  { config, settings, gateway, db, tokenKey, firstRun = null },
) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const users = createUsersRepository(db);
  const tokens = createTokenStore({ db, tokenKey });
  const roleBindings = createRoleBindingsRepository(db);
  const authorOptOuts = createAuthorOptOutsRepository(db);
  const cardConsents = createCardConsentsRepository(db);
  const runs = createCurationRunsRepository(db);

  /** The first run of a fresh install, in the background: the sign-in does not wait for it. */
  async function startFirstRun(user: User, log: FastifyBaseLogger): Promise<void> {
    if (!firstRun || !(await isAdmin(user, config.adminUsernames, db))) return;
    if ((await runs.lastRefreshedAt()) !== null) return;
    log.info({ userId: user.id }, 'first admin sign-in: starting a curation run');
    void firstRun().catch((error: unknown) => log.error({ err: error }, 'first curation run failed'));
  }

  // Fixed for the life of the process: serialized once, sent as it is.
  const authConfig: AuthConfig = {
    client_id: settings.appId,
    redirect_uri: settings.redirectUri,
    auth_base_url: settings.authBaseUrl,
    mode: config.threads.mode,
    scopes: [...MEMBER_SCOPES],
    curator_scopes: [...CURATOR_SCOPES],
  };
  const authConfigJson = jsonText(authConfig);
  app.get(
    '/api/auth/config',
    { config: { access: 'public' }, schema: { response: { 200: AuthConfigSchema } } },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(authConfigJson),
  );

  app.post(
    '/api/auth/callback',
    {
      config: { access: 'public', rateLimit: limit('signIn', config.rateLimitMultiplier) },
      schema: { body: CallbackRequestSchema, response: { 200: CallbackResponseSchema } },
    },
    async (request, reply) => {
      const { code, redirect_uri: redirectUri } = request.body;
      if (!settings.redirectUris.includes(redirectUri)) {
        throw new HttpError(400, "redirect_uri is not this site's sign-in callback address.");
      }
      let account;
      let grant;
      try {
        const shortLived = await gateway.exchangeCode(code, redirectUri);
        grant = await gateway.exchangeForLongLived(shortLived.accessToken);
        account = await gateway.me(grant.accessToken);
      } catch (error) {
        // Meta's trace id lets Meta support find the failed call.
        const fbtraceId = error instanceof ThreadsApiError ? error.fbtraceId : null;
        request.log.warn({ reason: (error as Error).message, fbtraceId }, 'sign-in failed at Threads');
        throw signInError(error);
      }
      if (
        config.allowedUsernames.length > 0 &&
        !config.allowedUsernames.includes(account.username.toLowerCase())
      ) {
        request.log.warn({ threadsUserId: account.id }, 'sign-in refused: not on ALLOWED_THREADS_USERNAMES');
        throw new HttpError(403, TEXTS.accessDenied);
      }
      const scopes = await grantedScopes(gateway, grant.accessToken, account.id, request.log);
      const now = new Date();
      const expiresAt = new Date(now.getTime() + grant.expiresInSeconds * 1000);
      const { user, cookie, stored } = await db.transaction(async (tx) => {
        // Read before the upsert, which clears "reconnect needed": a refused token is never kept.
        const reconnectNeeded = (await users.findByThreadsUserId(account.id, tx))?.reconnectNeeded ?? false;
        const user = await users.upsertOnSignIn(account.id, account.username, tx);
        await roleBindings.bindOnSignIn(
          configuredRoles(config, account.username),
          account.username,
          user.threadsUserId,
          tx,
        );
        const token = { accessToken: grant.accessToken, scopes, issuedAt: now, expiresAt };
        const stored = await tokens.saveOnSignIn({ ...user, reconnectNeeded }, token, tx);
        // Authors in control (decisions 028, 070): an opt-out and a card consent follow the current username.
        await authorOptOuts.refreshUsername(account.id, account.username, tx);
        await cardConsents.refreshUsername(account.id, account.username, tx);
        return { user, stored, cookie: await app.sessions.start(request, user.id, tx) };
      });
      app.sessions.setCookie(reply, cookie);
      request.log.info({ userId: user.id, scopes, keptWiderGrant: stored === 'kept' }, 'signed in');
      await startFirstRun(user, request.log).catch((error: unknown) =>
        request.log.error({ err: error }, 'could not check for a first curation run'),
      );
      return { success: true as const, ...toAuthUser(user) };
    },
  );

  const verify = { config: { access: 'user' as const }, schema: { response: { 200: VerifyResponseSchema } } };
  app.get('/api/auth/verify', verify, async (request) => {
    const user = await request.authUser();
    return { authenticated: true as const, ...toAuthUser(user) };
  });

  app.post(
    '/api/auth/refresh',
    {
      config: { access: 'user', rateLimit: limit('signIn', config.rateLimitMultiplier) },
      schema: { response: { 200: RefreshResponseSchema } },
    },
    async (request) => {
      const user = await request.authUser();
      let outcome;
      try {
        outcome = await refreshStoredToken(user.id, { db, gateway, tokenKey });
      } catch (error) {
        throw signInError(error);
      }
      if (outcome === 'reconnect_needed') {
        throw new HttpError(401, 'Your Threads connection has expired. Please sign in again.');
      }
      return toAuthUser(user);
    },
  );

  const logout = { config: { access: 'public' as const }, schema: { response: { 200: SuccessSchema } } };
  app.post('/api/auth/logout', logout, async (request, reply) => {
    await app.sessions.end(request, reply);
    return { success: true as const };
  });
};

export default authRoutes;
