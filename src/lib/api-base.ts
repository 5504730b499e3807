/**
 * Where the pages call the API: the origin baked in at build time from API_BASE_URL (astro.config.mjs
 * defines it), or '' for the pages' own origin, which keeps every call a relative `/api/...` URL.
 */
declare const __API_BASE_URL__: string | undefined;

/** The API origin this build calls, '' when it is the pages' own (also under Vitest, which defines none). */
export const API_BASE_URL = typeof __API_BASE_URL__ === 'string' ? __API_BASE_URL__ : '';

/** The URL of one API path (`/api/...`) for this build (astro.config.mjs strips the trailing slash). */
export function apiUrl(path: string): string {
  return API_BASE_URL + path;
}
