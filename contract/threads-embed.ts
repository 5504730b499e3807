import { EMBED_QUOTE_CLASS } from './embed-names.ts';
import { parseThreadUrl } from './thread-url.ts';
import { z } from './zod.ts';

/**
 * How the public sees a post (decision 070): `card` is our own card (text, picture, counts); `embed`
 * is Threads' official embed, which Meta's script fills in the visitor's browser.
 */
export const PostDisplaySchema = z.enum(['card', 'embed']);
export type PostDisplay = z.infer<typeof PostDisplaySchema>;

/** Meta's embed script, as its 'Get embed code' and the oEmbed `html` name it. */
export const THREADS_EMBED_SCRIPT_URL = 'https://www.threads.com/embed.js';

/**
 * The attributes of the blockquote that Meta's embed code and oEmbed `html` carry, for one permalink.
 * Built from the permalink alone: nothing the oEmbed endpoint returns is kept (decision 070).
 */
export function embedAttributes(permalink: string): Record<string, string> {
  return {
    class: EMBED_QUOTE_CLASS,
    'data-text-post-permalink': permalink,
    'data-text-post-version': '0',
  };
}

/** The author's handle as the permalink names it ('@name'), or null for a /t/ link that names none. */
export function handleInPermalink(permalink: string | undefined): string | null {
  if (!permalink) return null;
  const parsed = parseThreadUrl(permalink);
  return parsed.ok && parsed.link.username ? `@${parsed.link.username}` : null;
}

/** The words a placeholder and a link give an embedded post: 'Post by @name on Threads'. */
export function embedTitle(permalink: string | undefined): string {
  const handle = handleInPermalink(permalink);
  return handle ? `Post by ${handle} on Threads` : 'Post on Threads';
}
