// The names the embed's parts agree on (decision 070): the markup (embed-markup.ts), the page loader
// (src/lib/threads-embed.ts), the server's CSP and thread pages. No imports: the loader runs on every
// page of an embed site and must not bring zod with it.

/** The class Meta's script looks for: the blockquote it turns into the post. */
export const EMBED_QUOTE_CLASS = 'text-post-media';

/** The meta the layout writes with the script's address; the CSP adds that address's origin. */
export const EMBED_META_NAME = 'threads-embed-script';

/** A placeholder's 'Show post' button carries this attribute. */
export const EMBED_SHOW_ATTRIBUTE = 'data-embed-show';

/** The card around an embed (tabindex=-1): it takes the focus a replaced placeholder held. */
export const EMBED_CARD_ATTRIBUTE = 'data-embed-card';

/** Dispatched on `document` by an island that rendered embed cards after the page loaded. */
export const EMBEDS_ADDED_EVENT = 'ct:embeds-added';
