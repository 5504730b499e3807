import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliBytes, gzipBytes, QUICK } from '../../http/compression.ts';
import { THREAD_PAGE_CACHE_CONTROL } from '../../http/site-files.ts';
import type { ThreadPages } from '../../services/thread-pages/thread-page.ts';
import { accepts, answerHeaders, matchesETag, variantETag } from './file-responses.ts';
import type { StaticFile } from './static-store.ts';
import { threadPageHtml } from './thread-page-html.ts';
import { parseThreadTemplate, type ThreadTemplate } from './thread-template.ts';

/** Where thread pages live: `/thread/{id}`, one segment. */
export const THREAD_PAGE_PREFIX = '/thread/';

/** What the thread pages need besides the served site: the reads and the public origin. */
export interface ThreadPageOptions {
  pages: ThreadPages;
  publicUrl: URL;
  secure: boolean;
  /** `npm run dev` (no built site): the template as the dev server renders it (dev-template.ts). */
  devTemplate?: (() => Promise<StaticFile | undefined>) | undefined;
}

/** The parsed template per built template file: parsed once per site, not per request. */
const parsed = new WeakMap<StaticFile, ThreadTemplate>();

function templateOf(file: StaticFile): ThreadTemplate {
  let template = parsed.get(file);
  if (!template) {
    template = parseThreadTemplate(file.body.toString('utf8'));
    parsed.set(file, template);
  }
  return template;
}

/**
 * Answers `/thread/{id}` (decision 046) from the template and the database; false when there is
 * no such page (the caller answers the 404 page). Compressed as the built pages are (brotli 5, the
 * level of the rendered pages), with an ETag, the CDN's Cache-Control and the template's own CSP:
 * member text, escaped, can never add to it.
 */
export async function answerThreadPage(
  request: FastifyRequest,
  reply: FastifyReply,
  pathname: string,
  template: StaticFile,
  options: ThreadPageOptions,
): Promise<boolean> {
  const id = pathname.slice(THREAD_PAGE_PREFIX.length);
  const data = await options.pages.find(id);
  if (!data) return false;
  const body = Buffer.from(threadPageHtml(templateOf(template), data, options.publicUrl));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const acceptEncoding = request.headers['accept-encoding'];
  const encoding = accepts(acceptEncoding, 'br')
    ? 'br'
    : accepts(acceptEncoding, 'gzip')
      ? 'gzip'
      : undefined;
  const tag = encoding ? variantETag(etag, encoding === 'br' ? 'br' : 'gz') : etag;
  const parts = {
    contentType: 'text/html; charset=utf-8',
    cacheControl: THREAD_PAGE_CACHE_CONTROL,
    csp: template.csp,
    varies: true,
  };
  if (matchesETag(request.headers['if-none-match'], tag)) {
    const { notModified } = answerHeaders(parts, { length: 0, etag: tag, encoding }, options.secure);
    await reply.status(304).headers(notModified).send();
    return true;
  }
  const sent =
    encoding === 'br'
      ? await brotliBytes(body, QUICK.brotli)
      : encoding === 'gzip'
        ? await gzipBytes(body, QUICK.gzip)
        : body;
  const { headers } = answerHeaders(parts, { length: sent.length, etag: tag, encoding }, options.secure);
  await reply.status(200).headers(headers).send(sent);
  return true;
}
