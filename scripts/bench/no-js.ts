/** The home page with every script removed: what its LCP would be with no JavaScript at all. */

/** `html` without `<script>` elements and modulepreload links (the islands' server-rendered HTML stays). */
export function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, '');
}
