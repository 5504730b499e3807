import { createHash } from 'node:crypto';

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

function hashes(html: string, pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(pattern)) {
    found.add(
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
    );
  }
  return [...found];
}

export interface PageCspOptions {
  /** Served over https: adds upgrade-insecure-requests. */
  secure: boolean;
  /** The API's origin when the pages call it on another one (API_BASE_URL), added to connect-src. */
  apiOrigin?: string | undefined;
}

/**
 * The CSP header for one built HTML page. Astro inlines its island loader and small stylesheets, so
 * the policy allows exactly those inline blocks by hash instead of 'unsafe-inline'. A `<meta>` CSP
 * cannot carry frame-ancestors, hence an HTTP header computed per page.
 */
export function pageCsp(html: string, { secure, apiOrigin }: PageCspOptions): string {
  const directives = [
    "default-src 'self'",
    ['script-src', "'self'", ...hashes(html, INLINE_SCRIPT)].join(' '),
    ['style-src', "'self'", ...hashes(html, INLINE_STYLE)].join(' '),
    // Cards load pictures from the API's stable address (decision 025), which redirects to Threads'
    // CDNs (https) or, in simulated mode, to the simulator on the API's origin.
    ['img-src', "'self'", 'data:', 'https:', ...(apiOrigin ? [new URL(apiOrigin).origin] : [])].join(' '),
    "font-src 'self'",
    ['connect-src', "'self'", ...(apiOrigin ? [new URL(apiOrigin).origin] : [])].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (secure) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}
