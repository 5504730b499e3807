import type { FastifyReply, FastifyRequest } from 'fastify';

/** The policy for everything that is not an HTML page (API JSON, assets): nothing may load or frame it. */
export const STRICT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface SecurityHeadersOptions {
  /** Served over https: adds HSTS. */
  secure: boolean;
}

function buildSecurityHeaders(secure: boolean): readonly (readonly [string, string])[] {
  const headers: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
    ['Content-Security-Policy', STRICT_CSP],
  ];
  if (secure) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

// Built once per setting: they are applied to every response.
const HEADERS = { plain: buildSecurityHeaders(false), secure: buildSecurityHeaders(true) };

/** The headers every response carries; the CSP here is the default, which HTML pages replace with their own. */
export function securityHeaders({ secure }: SecurityHeadersOptions): readonly (readonly [string, string])[] {
  return secure ? HEADERS.secure : HEADERS.plain;
}

/**
 * Whether a request was routed to the API. Decided by the matched route as well as the raw URL:
 * Fastify decodes the path, so `/%61pi/user/profile` reaches the `/api/user/profile` handler.
 */
export function isApiRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.url ?? '').startsWith('/api/') || request.url.startsWith('/api/');
}

/** Headers a route may set for itself: a page's own CSP, an image's Cross-Origin-Resource-Policy. */
const ROUTE_MAY_SET = new Set(['Content-Security-Policy', 'Cross-Origin-Resource-Policy']);

/** Sets the security headers on one reply, keeping a page-specific CSP (or CORP) that is already set. */
export function applySecurityHeaders(
  reply: FastifyReply,
  api: boolean,
  options: SecurityHeadersOptions,
): void {
  for (const [name, value] of securityHeaders(options)) {
    if (!ROUTE_MAY_SET.has(name) || !reply.hasHeader(name)) reply.header(name, value);
  }
  // API answers may be personal: never stored by browsers or shared caches unless a route says otherwise.
  if (api && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
}
