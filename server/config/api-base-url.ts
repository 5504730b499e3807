/**
 * `API_BASE_URL`: the origin the static pages call the API on when it is not their own (decision 018).
 * An origin only: the API's routes stay at `/api/...` on it, so a path, query, fragment or credentials
 * are refused rather than silently dropped.
 */
import { z } from 'zod';

/** A URL with a user name or password in it (`https://user:pass@host`): never echoed in an error. */
export const hasCredentials = (value: string) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value);

/** Why a value cannot be API_BASE_URL, or null when it can. */
export function apiBaseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) origin such as https://api.curated.example';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'must be an http(s) origin such as https://api.curated.example';
  if (url.username || url.password) return 'must not carry a user name or password';
  // URL drops an empty "?" or "#": look at the text itself.
  if (value.includes('?') || value.includes('#')) return 'must not have a query (?) or a fragment (#)';
  if (url.pathname !== '/')
    return 'must be an origin without a path (the API answers at /api/... on it), such as https://api.curated.example';
  return null;
}

/**
 * The API origin the pages call (no trailing slash; undefined: their own origin), or the problem with
 * it. It must use the pages' scheme: http and https origins are different sites, so the SameSite
 * session cookie would not travel (and https pages may not call http at all).
 */
export function apiOriginFor(
  value: string | undefined,
  publicUrl: URL,
): { origin: string | undefined } | { problem: string } {
  if (value === undefined) return { origin: undefined };
  const url = new URL(value);
  if (url.protocol !== publicUrl.protocol) {
    const scheme = publicUrl.protocol.slice(0, -1);
    return {
      problem: `must use PUBLIC_URL's scheme (${scheme}): the session cookie only travels within one site`,
    };
  }
  return { origin: url.origin };
}

/** The variable's own checks (the scheme is compared with PUBLIC_URL's afterwards, in apiOriginFor). */
export const ApiBaseUrlSchema = z.string().check((ctx) => {
  const problem = apiBaseUrlProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
});
