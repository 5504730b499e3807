import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { isApiRoute } from '../http/security-headers.ts';

export interface SameOriginOptions {
  /** The site's own origin (PUBLIC_URL). */
  origin: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the few routes that servers of other sites call (Meta's signed callbacks). */
    crossSite?: boolean;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF defence for the API (OWASP): a state-changing request must come from our own pages.
 * Sec-Fetch-Site is the main signal; without it the Origin must be ours; with neither it is refused.
 * `same-site` passes only with our own Origin: the pages on PUBLIC_URL calling the API on another
 * origin of the same site (API_BASE_URL, decision 018); a sibling subdomain stays untrusted.
 */
const sameOrigin: FastifyPluginAsync<SameOriginOptions> = async (app, { origin }) => {
  // Callback style: an async hook costs a promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    // The matched route, not the raw URL: Fastify decodes the path, so /%61pi/... reaches /api/... routes.
    if (!isApiRoute(request)) return done();
    reply.header('Vary', 'Origin, Sec-Fetch-Site');
    if (!UNSAFE.has(request.method) || request.routeOptions.config.crossSite) return done();
    const fetchSite = request.headers['sec-fetch-site'];
    const ours = request.headers.origin === origin;
    const allowed = fetchSite ? fetchSite === 'same-origin' || (fetchSite === 'same-site' && ours) : ours;
    if (allowed) return done();
    request.log.warn({ fetchSite, origin: request.headers.origin }, 'cross-site request refused');
    void reply.status(403).send({ detail: 'This request must come from the Curated Threads site itself.' });
  });
};

export default fp(sameOrigin, { name: 'same-origin' });
