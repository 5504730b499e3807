import { EMBED_META_NAME } from '../../contract/embed-names.ts';
import type { HtmlStartTag } from './html-tags.ts';

// The `<meta name>` through which a built page names the Threads embed script it loads (decision
// 070): the site's layout writes it when EMBED_SCRIPT_URL is set, and the page's CSP lets that
// script's origin in. Its loader (src/lib/threads-embed.ts) reads the address from the same tag.

// What an origin serializes to, nothing more: a value that reached a CSP header with a space, `;`
// or `,` in it would add sources or directives of its own.
const ORIGIN = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The origin of the embed script a `<meta name="threads-embed-script">` tag names; null for any other tag. */
export function embedScriptOrigin(tag: HtmlStartTag): string | null {
  if (tag.name !== 'meta') return null;
  const value = (name: string) => tag.attributes.find((attribute) => attribute.name === name)?.value;
  if (value('name') !== EMBED_META_NAME) return null;
  const content = value('content');
  if (!content) return null;
  try {
    const { origin } = new URL(content);
    return ORIGIN.test(origin) ? origin : null;
  } catch {
    return null;
  }
}
