import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { STRICT_CSP } from '../site/content-security-policy.ts';

export interface SecurityHeadersOptions {
  /** Served over https: adds HSTS. */
  secure: boolean;
}

/**
 * Sets the security headers on one reply. HTML pages set their own hashed CSP first; everything
 * else gets the strict default.
 */
export function applySecurityHeaders(
  reply: FastifyReply,
  url: string,
  { secure }: SecurityHeadersOptions,
): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
  reply.header('Cross-Origin-Resource-Policy', 'same-origin');
  reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', STRICT_CSP);
  if (secure) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  // API answers may be personal: never stored by browsers or shared caches unless a route says otherwise.
  if (url.startsWith('/api/') && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
}

/** Security headers on every response, errors and 404s included (onSend runs for all of them). */
const securityHeaders: FastifyPluginAsync<SecurityHeadersOptions> = async (app, options) => {
  app.addHook('onSend', async (request, reply, payload) => {
    applySecurityHeaders(reply, request.url, options);
    return payload;
  });
};

export default fp(securityHeaders, { name: 'security-headers' });
