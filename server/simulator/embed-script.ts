/**
 * The simulated Threads' stand-in for Meta's https://www.threads.com/embed.js (decision 070): a
 * classic script that turns each Threads embed blockquote not yet handled into an iframe of the post
 * from the script's own origin, as Meta's does from www.threads.com. Running it again (a page that
 * added posts) handles only the new ones. Where the posts live is found from the script's own
 * address, so it works on a page of any origin.
 */
export const EMBED_SCRIPT = `(() => {
  const script = document.currentScript;
  const base = new URL('embed/post/', script && script.src ? script.src : location.href);
  const post = /^\\/(?:@([^/]+)\\/post|t)\\/([^/?#]+)/;
  const quotes = document.querySelectorAll(
    'blockquote.text-post-media[data-text-post-permalink]:not([data-text-post-embedded])',
  );
  for (const quote of quotes) {
    quote.setAttribute('data-text-post-embedded', '');
    const permalink = quote.getAttribute('data-text-post-permalink') || '';
    let src = null;
    try {
      const match = post.exec(new URL(permalink).pathname);
      if (match) {
        src = new URL(encodeURIComponent(decodeURIComponent(match[2])), base);
        if (match[1]) src.searchParams.set('username', decodeURIComponent(match[1]));
      }
    } catch {
      src = null;
    }
    // Not a post's address: the blockquote (and the page's placeholder in it) stays.
    if (!src) continue;
    const frame = document.createElement('iframe');
    frame.src = src.href;
    frame.title = 'Post on Threads';
    frame.width = '540';
    frame.height = '560';
    frame.loading = 'lazy';
    frame.style.maxWidth = '100%';
    frame.style.border = '0';
    frame.setAttribute('data-text-post-permalink', permalink);
    quote.replaceWith(frame);
  }
})();
`;
