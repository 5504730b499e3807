import { createHash } from 'node:crypto';
import { escapeHtml } from '../http/html-escape.ts';
import type { LivePost } from './live-posts.ts';

const STYLE = `body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#101010;background:#fff}
article{box-sizing:border-box;min-height:100vh;padding:16px;border:1px solid #e0e0e0;border-radius:12px}
.who{margin:0 0 8px}.who strong{font-weight:700}.who span{color:#777}.text{margin:0 0 12px;white-space:pre-wrap;overflow-wrap:anywhere}
img{display:block;max-width:100%;max-height:320px;border-radius:8px;margin:0 0 12px}
a{color:#101010;font-weight:600}.gone{color:#777}`;

/**
 * The post page's CSP: its one stylesheet by hash, pictures from the simulator's media addresses,
 * no script at all, and framed by any page, as Meta lets any site embed a public post.
 */
export function embedPageCsp(mediaOrigin: string): string {
  return [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    `img-src ${new URL(mediaOrigin).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Post on Threads</title><style>${STYLE}</style></head><body><article>${body}</article></body></html>`;
}

/** What the embed shows of a post: its author, its text (a repost has none) and its picture, if any. */
export function embedPostPage(post: LivePost, picture: string | null): string {
  const permalink = `https://www.threads.com/@${post.username}/post/${post.shortcode}`;
  const name = 'displayName' in post ? post.displayName : post.username;
  const repost = 'mediaType' in post && post.mediaType === 'REPOST_FACADE';
  return page(
    `<p class="who"><strong>${escapeHtml(name)}</strong> <span>@${escapeHtml(post.username)}</span></p>` +
      (repost
        ? '<p class="text gone">Reposted a post.</p>'
        : `<p class="text">${escapeHtml(post.text)}</p>`) +
      (picture ? `<img src="${escapeHtml(picture)}" alt="">` : '') +
      `<a href="${escapeHtml(permalink)}" target="_blank" rel="noopener noreferrer">View on Threads</a>`,
  );
}

/** A deleted or unknown post, as the embed shows it. */
export function unavailablePostPage(): string {
  return page('<p class="gone">This post is unavailable.</p>');
}
