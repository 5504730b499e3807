// Member text reaches a filled page only through these (decision 039: the template is the only
// source of elements).

import { escapeHtml } from '../../contract/html-escape.ts';

// One rule for the server's filled pages and the site's embed markup (contract/embed-markup.ts).
export { escapeHtml };

/**
 * A URL safe in an `href` or `src`: only https and http addresses or a path of this site (never
 * `javascript:` or `data:`), escaped for the attribute. Anything else is null: the caller leaves
 * the link out.
 */
export function escapeUrl(url: string): string | null {
  if (/^\/(?![/\\])/.test(url)) return escapeHtml(url);
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? escapeHtml(parsed.href) : null;
  } catch {
    return null;
  }
}
