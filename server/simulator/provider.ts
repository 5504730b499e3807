import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { signRequest } from '../threads/signed-request.ts';
import { authorizePage, authorizePageCsp, blockedPage, removeAppPage } from './authorize-page.ts';
import { acceptFormBodies } from '../http/form-body.ts';
import { KNOWN_SCOPES, authorizeCall } from './access.ts';
import { registerMediaFileRoute, type MediaAddressing } from './media-files.ts';
import { registerMediaRoutes } from './media-routes.ts';
import { registerEmbedRoutes } from './embed-routes.ts';
import { registerOembedRoutes } from './oembed-routes.ts';
import { registerSearchRoutes } from './search-routes.ts';
import { graphError, invalidToken } from './graph-error.ts';
import { registerContainerControls, registerPublishRoutes } from './publish-routes.ts';
import { registerFaults, SimulatedFaults } from './faults.ts';
import { LONG_LIVED_MS, simulatedUserId, type SimulatedThreadsStore } from './store.ts';

export interface SimulatedProviderOptions {
  clientId: string;
  clientSecret: string;
  /** Exact redirect URIs the simulated app has registered, like the Threads app dashboard. */
  redirectUris: string[];
  store: SimulatedThreadsStore;
  /** Where this server's own API answers (for the signed callbacks Meta would send). */
  appOrigin: () => string;
  /** Where browsers fetch the seeded posts' pictures, and how long an address works. */
  media: MediaAddressing;
  /** Folders holding the seeded pictures (design-NN.webp), searched in order. */
  imageDirs: readonly string[];
  /** The fake app's access level (threads-api.md section 10): standard or advanced. */
  accessLevel: 'standard' | 'advanced';
  /** Mount the test controls (fault injection, container processing): SIMULATED_CONTROLS, tests only. */
  controls?: boolean;
}

type Fields = Record<string, string | undefined>;

/** The scope parameter: comma-separated, or space-separated (threads-api.md section 1). */
export function requestedScopes(scope: string | undefined): string[] {
  return [...new Set((scope ?? '').split(/[\s,]+/).filter(Boolean))];
}

/**
 * What the person granted on the consent page: threads_basic always, each other requested
 * permission unless its box was unticked (`grant_<scope>` is sent for every ticked box).
 */
function grantedScopes(fields: Fields): string[] {
  return requestedScopes(fields.scope).filter(
    (scope) => scope === 'threads_basic' || fields[`grant_${scope}`] === 'on',
  );
}

const USERNAME = /^[A-Za-z0-9._]{1,30}$/;

/** Token and grant refusals, as Threads words them (OAuthException). */
function oauthError(reply: FastifyReply, message: string, code = 100) {
  return graphError(reply, message, { code, type: 'OAuthException' });
}

function html(reply: FastifyReply, status: number, body: string, csp: string) {
  return reply
    .status(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', csp)
    .header('Cache-Control', 'no-store')
    .send(body);
}

function redirectWith(reply: FastifyReply, redirectUri: string, params: Record<string, string>) {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value) url.searchParams.set(name, value);
  // Threads appends "#_" to the redirect; browsers keep it, servers never see it.
  return reply
    .status(302)
    .header('Location', `${url.href}#_`)
    .header('Referrer-Policy', 'no-referrer')
    .send();
}

/**
 * The simulated Threads provider (DESIGN section 6): the same HTTP protocol as threads.com and
 * graph.threads.net for sign-in, mounted under /simulated-threads in simulated mode only.
 */
const simulatedProvider: FastifyPluginAsync<SimulatedProviderOptions> = async (app, options) => {
  const { store } = options;
  const csp = authorizePageCsp(options.redirectUris);
  const page = (reply: FastifyReply, status: number, body: string) => html(reply, status, body, csp);
  // Threads' token endpoint and this consent form post forms; the rest of the server accepts JSON only.
  acceptFormBodies(app, 4096);
  if (options.controls) {
    // First, so the fault hook sees every endpoint registered below.
    registerFaults(app, new SimulatedFaults());
    registerContainerControls(app, store);
  }

  function checkApp(fields: Fields): string | null {
    if (fields.client_id !== options.clientId)
      return 'The app id (client_id) is not a registered Threads app.';
    if (!fields.redirect_uri || !options.redirectUris.includes(fields.redirect_uri)) {
      return "The redirect_uri is not one of the app's valid OAuth redirect URIs.";
    }
    if (fields.response_type !== 'code') return 'response_type must be code (the authorization code flow).';
    const scopes = requestedScopes(fields.scope);
    const unknown = scopes.filter((scope) => !(KNOWN_SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0) return `Invalid scopes: ${unknown.join(', ')}.`;
    if (!scopes.includes('threads_basic')) return 'The scope must include threads_basic.';
    return null;
  }

  app.get<{ Querystring: Fields }>('/oauth/authorize', async (request, reply) => {
    const blocked = checkApp(request.query);
    if (blocked) return page(reply, 400, blockedPage(blocked));
    return page(reply, 200, authorizePage(request.query as Record<string, string>));
  });

  app.post<{ Body: Fields }>('/oauth/authorize', async (request, reply) => {
    const fields = request.body ?? {};
    const blocked = checkApp(fields);
    if (blocked) return page(reply, 400, blockedPage(blocked));
    const redirectUri = fields.redirect_uri as string;
    const state = fields.state ?? '';
    if (fields.decision === 'cancel') {
      return redirectWith(reply, redirectUri, {
        error: 'access_denied',
        error_reason: 'user_denied',
        error_description: 'Permissions error',
        state,
      });
    }
    const username = (fields.username ?? '').trim().replace(/^@/, '');
    if (!USERNAME.test(username)) {
      const message = 'A Threads username has 1 to 30 letters, digits, periods or underscores.';
      return page(reply, 400, authorizePage({ ...(fields as Record<string, string>), username }, message));
    }
    return redirectWith(reply, redirectUri, {
      code: store.issueCode(username.toLowerCase(), redirectUri, grantedScopes(fields)),
      state,
    });
  });

  app.post<{ Body: Fields }>('/oauth/access_token', async (request, reply) => {
    const fields = request.body ?? {};
    if (fields.client_id !== options.clientId || fields.client_secret !== options.clientSecret) {
      return oauthError(reply, 'Error validating client secret.', 1);
    }
    if (fields.grant_type !== 'authorization_code') return oauthError(reply, 'Unsupported grant_type.');
    const token = store.redeemCode(fields.code ?? '', fields.redirect_uri ?? '');
    if (!token)
      return oauthError(
        reply,
        'Error validating verification code. The code has expired or was already used.',
      );
    const username = store.owner(token) ?? '';
    // Like Threads, the id is a bare JSON number beyond 2^53: clients must not let JSON.parse round it.
    return reply
      .type('application/json')
      .send(`{"access_token":"${token}","user_id":${simulatedUserId(username)}}`);
  });

  // The app token (threads-api.md section 1, "Others"): client_credentials with the app id and secret.
  app.get<{ Querystring: Fields }>('/oauth/access_token', async (request, reply) => {
    const fields = request.query;
    if (fields.grant_type !== 'client_credentials') return oauthError(reply, 'Unsupported grant_type.');
    if (fields.client_id !== options.clientId || fields.client_secret !== options.clientSecret) {
      return oauthError(reply, 'Error validating client secret.', 1);
    }
    return {
      access_token: `TH|${options.clientId}|${createHash('sha256').update(options.clientSecret).digest('hex').slice(0, 32)}`,
      token_type: 'bearer',
    };
  });

  app.get<{ Querystring: Fields }>('/access_token', async (request, reply) => {
    const { grant_type: grantType, client_secret: secret, access_token: token } = request.query;
    if (grantType !== 'th_exchange_token') return oauthError(reply, 'Unsupported grant_type.');
    if (secret !== options.clientSecret) return oauthError(reply, 'Error validating client secret.', 1);
    const longLived = store.exchange(token ?? '');
    if (!longLived) return oauthError(reply, 'Error validating access token: the session is invalid.', 190);
    return { access_token: longLived, token_type: 'bearer', expires_in: LONG_LIVED_MS / 1000 };
  });

  app.get<{ Querystring: Fields }>('/refresh_access_token', async (request, reply) => {
    if (request.query.grant_type !== 'th_refresh_token') return oauthError(reply, 'Unsupported grant_type.');
    const renewed = store.refresh(request.query.access_token ?? '');
    if (renewed === 'too_early')
      return oauthError(reply, 'The access token can be refreshed once it is 24 hours old.');
    if (!renewed) return oauthError(reply, 'Error validating access token: the session has expired.', 190);
    return { access_token: renewed, token_type: 'bearer', expires_in: LONG_LIVED_MS / 1000 };
  });

  app.get('/settings/apps', async (_request, reply) => page(reply, 200, removeAppPage()));

  // Like Meta when a person removes the app: a signed deauthorize and data-deletion callback.
  app.post<{ Body: Fields }>('/settings/apps/remove', async (request, reply) => {
    const username = (request.body?.username ?? '').trim().replace(/^@/, '').toLowerCase();
    if (!USERNAME.test(username))
      return page(reply, 400, removeAppPage({ error: 'Enter a Threads username.' }));
    const signedRequest = signRequest(
      {
        algorithm: 'HMAC-SHA256',
        user_id: simulatedUserId(username),
        issued_at: Math.floor(store.now() / 1000),
      },
      options.clientSecret,
    );
    const send = (path: string) =>
      fetch(`${options.appOrigin()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ signed_request: signedRequest }),
      });
    const [deauthorized, deleted] = [
      await send('/api/auth/deauthorize'),
      await send('/api/auth/data-deletion'),
    ];
    if (!deauthorized.ok || !deleted.ok) {
      return page(
        reply,
        502,
        removeAppPage({ error: `The app answered ${deauthorized.status} / ${deleted.status}.` }),
      );
    }
    const { url } = (await deleted.json()) as { url: string };
    return page(reply, 200, removeAppPage({ username, statusUrl: url }));
  });

  const { media, accessLevel } = options;
  registerSearchRoutes(app, { store, media, accessLevel });
  registerMediaRoutes(app, { store, media, accessLevel });
  registerMediaFileRoute(app, { store, imageDirs: options.imageDirs });
  registerPublishRoutes(app, { store });
  registerOembedRoutes(app, { store });
  registerEmbedRoutes(app, { store, media });

  app.get<{ Querystring: Fields }>('/v1.0/me', async (request, reply) => {
    const owner = authorizeCall(store, reply, request.query.access_token);
    if (!owner) return reply;
    return { id: simulatedUserId(owner.username), username: owner.username };
  });

  // Token introspection (threads-api.md section 1): who a token belongs to and what it was granted.
  app.get<{ Querystring: Fields }>('/v1.0/debug_token', async (request, reply) => {
    if (!store.grantOf(request.query.access_token ?? '')) return invalidToken(reply);
    const input = store.grantOf(request.query.input_token ?? '');
    if (!input) return oauthError(reply, 'The input_token is invalid or has expired.', 190);
    return {
      data: {
        type: 'USER',
        application: 'Curated Threads',
        app_id: options.clientId,
        is_valid: true,
        user_id: simulatedUserId(input.username),
        scopes: [...input.scopes],
        issued_at: Math.floor(input.issuedAt / 1000),
        expires_at: Math.floor(input.expiresAt / 1000),
      },
    };
  });
};

export default simulatedProvider;
