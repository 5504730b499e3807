import { createHash } from 'node:crypto';
import { embedScriptOrigin } from './embed-script-meta.ts';
import { startTags } from './html-tags.ts';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The hashes of the page's own inline scripts (without `src`) and styles, and the origin of the
 * Threads embed script its first `<meta name="threads-embed-script">` names: real elements only,
 * found by a tokenizer (html-tags.ts), so member text in an attribute can neither add a source nor
 * hide one.
 */
function pageSources(html: string): { scripts: string[]; styles: string[]; embed: string | null } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  let embed: string | null = null;
  for (const tag of startTags(html)) {
    embed ??= embedScriptOrigin(tag);
    if (tag.text === null) continue;
    if (tag.name === 'style') styles.add(hashOf(tag.text));
    else if (!tag.attributes.some((attribute) => attribute.name === 'src')) scripts.add(hashOf(tag.text));
  }
  return { scripts: [...scripts], styles: [...styles], embed };
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
  const { scripts, styles, embed } = pageSources(html);
  // Threads' embed (decision 070): its script turns each post's blockquote into an iframe from the
  // script's own origin (www.threads.com for Meta's, the API's for the simulator's stand-in).
  // UNCONFIRMED: whether Meta's script loads anything into the page itself from further origins.
  // The origin is named even when it is the page's own: 'self' would cover it, and the page's
  // origin is not known here; frame-src keeps 'self', which default-src gave frames before.
  const embedSources = embed ? [embed] : [];
  const directives = [
    "default-src 'self'",
    ['script-src', "'self'", ...embedSources, ...scripts].join(' '),
    ['style-src', "'self'", ...styles].join(' '),
    // Cards load pictures from the API's stable address (decision 025), which redirects to Threads'
    // CDNs (https) or, in simulated mode, to the simulator on the API's origin.
    ['img-src', "'self'", 'data:', 'https:', ...(apiOrigin ? [new URL(apiOrigin).origin] : [])].join(' '),
    "font-src 'self'",
    ['connect-src', "'self'", ...(apiOrigin ? [new URL(apiOrigin).origin] : [])].join(' '),
    ...(embed ? [`frame-src 'self' ${embed}`] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (secure) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}
