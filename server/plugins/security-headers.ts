import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { applySecurityHeaders, isApiRoute, type SecurityHeadersOptions } from '../http/security-headers.ts';

/**
 * Security headers on every response that goes through Fastify's reply (routes, errors, 404s).
 * The few answers Fastify writes without a reply (bad URLs, malformed requests) are covered in app.ts.
 */
const securityHeadersPlugin: FastifyPluginAsync<SecurityHeadersOptions> = async (app, options) => {
  // Callback style: an async hook costs a promise on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    applySecurityHeaders(reply, isApiRoute(request), options);
    done(null, payload);
  });
};

export default fp(securityHeadersPlugin, { name: 'security-headers' });
