import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { parseSocialImagePath } from '../../../contract/social-image.ts';
import { SOCIAL_IMAGE_CACHE_CONTROL } from '../../http/site-files.ts';
import { socialCardSvg } from '../../services/social-images/social-card.ts';
import type { SocialPictures } from '../../services/social-images/social-pictures.ts';
import { BoundedCache } from './bounded-cache.ts';
import { answerHeaders, matchesETag } from './file-responses.ts';

/** Rendered pictures kept in memory, by their drawing's hash: bounded whatever the catalogue's size. */
export const SOCIAL_CACHE = { maxEntries: 256, maxBytes: 16 * 1024 * 1024 };
/** Renders at once at most: a burst of new links waits its turn instead of taking every core. */
const MAX_RENDERING = 2;
/** Renders waiting at most; beyond, a 503 asks the crawler to come back (it always does). */
export const MAX_WAITING = 64;
const RETRY_SECONDS = 5;

/** The PNG of a drawing (level 6: about 30 ms and 84 KB for a thread's, decision 048). */
function drawPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * Draws the link preview pictures of decision 048: each page's words as SVG, rendered to PNG by
 * sharp on request, kept in a bounded cache and in CDNs (an hour). The ETag is the drawing's hash,
 * so a revalidation costs a read and no render.
 */
export class SocialImages {
  readonly #pictures: SocialPictures;
  readonly #secure: boolean;
  readonly #cache = new BoundedCache<Buffer>(SOCIAL_CACHE);
  readonly #rendering = new Map<string, Promise<Buffer>>();
  readonly #waiting: (() => void)[] = [];
  #active = 0;

  readonly #draw: (svg: string) => Promise<Buffer>;

  /** `draw` turns a drawing into PNG bytes: sharp, unless a test needs to hold renders back. */
  constructor(pictures: SocialPictures, secure: boolean, draw: (svg: string) => Promise<Buffer> = drawPng) {
    this.#pictures = pictures;
    this.#secure = secure;
    this.#draw = draw;
  }

  /** Answers `/social/{kind}/{key}.png`; false when no page has that picture (the caller 404s). */
  async answer(request: FastifyRequest, reply: FastifyReply, pathname: string): Promise<boolean> {
    const target = parseSocialImagePath(pathname);
    if (!target) return false;
    const card = await this.#pictures.find(target.kind, target.key);
    if (!card) return false;
    const svg = socialCardSvg(card);
    const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"`;
    const parts = {
      contentType: 'image/png',
      cacheControl: SOCIAL_IMAGE_CACHE_CONTROL,
      csp: undefined,
      varies: false,
    };
    if (matchesETag(request.headers['if-none-match'], etag)) {
      const { notModified } = answerHeaders(parts, { length: 0, etag, encoding: undefined }, this.#secure);
      await reply.status(304).headers(notModified).send();
      return true;
    }
    const png = await this.#png(etag, svg);
    if (!png) {
      await reply
        .status(503)
        .headers({ 'retry-after': String(RETRY_SECONDS), 'cache-control': 'no-store' })
        .send({ detail: 'Too many pictures are being drawn. Please try again in a few seconds.' });
      return true;
    }
    const { headers } = answerHeaders(parts, { length: png.length, etag, encoding: undefined }, this.#secure);
    await reply
      .status(200)
      .headers(headers)
      .send(request.method === 'HEAD' ? undefined : png);
    return true;
  }

  /**
   * The PNG of a drawing: cached, rendered once however many ask at the same time; null when the
   * queue of renders is full.
   */
  async #png(etag: string, svg: string): Promise<Buffer | null> {
    const cached = this.#cache.get(etag);
    if (cached) return cached;
    let rendering = this.#rendering.get(etag);
    if (!rendering) {
      if (this.#waiting.length >= MAX_WAITING) return null;
      rendering = this.#render(svg)
        .then((png) => {
          this.#cache.set(etag, png, png.length);
          return png;
        })
        .finally(() => this.#rendering.delete(etag));
      this.#rendering.set(etag, rendering);
    }
    return rendering;
  }

  async #render(svg: string): Promise<Buffer> {
    // A finished render hands its slot straight to the next in line, so the bound always holds.
    if (this.#active >= MAX_RENDERING) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active += 1;
    try {
      return await this.#draw(svg);
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}
