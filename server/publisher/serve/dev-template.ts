import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { THREAD_TEMPLATE_FILE } from '../../http/site-files.ts';
import { fileResponses, type FileParts } from './file-responses.ts';
import type { StaticFile } from './static-store.ts';

/**
 * Astro's dev pages load Vite's client, inject styles and open a websocket to the dev server: the
 * built pages' hash-based CSP would block all three. Development only (DEV_PAGES_URL is refused in
 * production).
 */
const DEV_CSP = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob: https: ws:";

/** How long the dev server may take to render the template (its first render compiles the page). */
const DEV_TEMPLATE_TIMEOUT_MS = 30_000;

/**
 * `npm run dev` (DEV_PAGES_URL): the thread template as the Astro dev server renders it now, read
 * at every thread page so an edit shows without a build; undefined (the caller answers 404) when
 * the dev server does not give it. An unchanged rendering is the same object, parsed once.
 */
export function devThreadTemplate(
  pagesUrl: URL,
  log: FastifyBaseLogger,
): () => Promise<StaticFile | undefined> {
  // The template's folder address: Astro's dev server renders src/pages/thread/template.astro there.
  const url = new URL(`/${THREAD_TEMPLATE_FILE.replace(/index\.html$/, '')}`, pagesUrl);
  let last: StaticFile | undefined;
  return async () => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(DEV_TEMPLATE_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      // Astro's dev server marks every element with its source (for its toolbar): the template's
      // parts are found by their exact start tags, so the marks go.
      const html = (await response.text()).replace(/ data-astro-source-(?:file|loc)="[^"]*"/g, '');
      const body = Buffer.from(html);
      if (last?.body.equals(body)) return last;
      const parts: FileParts = {
        body,
        br: undefined,
        gzip: undefined,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        contentType: 'text/html; charset=utf-8',
        cacheControl: 'no-store',
        csp: DEV_CSP,
      };
      last = { ...parts, responses: fileResponses(parts, false) };
      return last;
    } catch (error) {
      log.warn({ url: url.href, reason: String(error) }, 'The dev server did not give the thread template.');
      return undefined;
    }
  };
}
