import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isApiRoute } from '../http/security-headers.ts';

export interface CorsOptions {
  /** The pages' origin (PUBLIC_URL): the only one allowed to read API answers from another origin. */
  origin: string;
}

/** What the islands send: our routes' methods, and JSON bodies (Content-Type is not CORS-safelisted). */
export const CORS_ALLOWED_METHODS = 'GET, POST, PUT, DELETE';
export const CORS_ALLOWED_HEADERS = 'Content-Type';
/** How long a browser may reuse a preflight answer: two hours, Chromium's cap. */
export const CORS_MAX_AGE_SECONDS = 7200;

function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/** Adds `token` to the Vary header unless it is already listed. */
function vary(reply: FastifyReply, token: string): void {
  const current = reply.getHeader('Vary');
  const listed = String(current ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  if (listed.includes('*') || listed.includes(token.toLowerCase())) return;
  reply.header('Vary', current ? `${String(current)}, ${token}` : token);
}

/**
 * CORS for the split deployment (decision 018): pages on PUBLIC_URL call the API on API_BASE_URL, an
 * origin of the same site. Only an `Origin` exactly equal to PUBLIC_URL's gets the CORS headers, with
 * credentials; every other origin gets none, so its pages can neither read an answer nor pass a
 * preflight. Every /api answer varies on Origin, so a cache never hands one origin's answer to another.
 * Whether a state-changing request may run at all is still the same-origin plugin's decision.
 */
const cors: FastifyPluginAsync<CorsOptions> = async (app, { origin }) => {
  // Both hooks run on every request, hot reads included: callback style, no promise per request.
  // Preflights reach no route (none is declared for OPTIONS): answered here, before anything else runs.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isPreflight(request) || !isApiRoute(request)) return done();
    if (request.headers.origin === origin) return void reply.status(204).send();
    request.log.warn({ origin: request.headers.origin }, 'CORS preflight from another origin refused');
    void reply
      .status(403)
      .send({ detail: 'Only the Curated Threads site may call this API from another origin.' });
  });

  // onSend sees every answer, errors included: a refusal's {detail} stays readable by our pages.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isApiRoute(request)) return done(null, payload);
    vary(reply, 'Origin');
    if (request.headers.origin === origin) {
      reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Allow-Credentials', 'true');
      if (isPreflight(request)) {
        reply
          .header('Access-Control-Allow-Methods', CORS_ALLOWED_METHODS)
          .header('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS)
          .header('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
      }
    }
    done(null, payload);
  });
};

export default fp(cors, { name: 'cors' });
