import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { SimulatedThreadsStore } from './store.ts';

/** Where the simulator's media addresses point and how long they work. */
export interface MediaAddressing {
  /** The simulator's public origin with its prefix (e.g. https://api.example.com/simulated-threads). */
  origin: string;
  /** SIMULATED_MEDIA_TTL_SECONDS: Meta's signed CDN URLs stop working within hours. */
  ttlSeconds: number;
}

const FILE = /^design-(0[1-9]|1[0-2])\.webp$/;

/** The seeded picture number as the file the simulator serves. */
export function mediaFile(imageIndex: number): string {
  return `design-${String(imageIndex).padStart(2, '0')}.webp`;
}

/**
 * A signed, expiring address of a seeded picture, shaped like Meta's CDN URLs (threads-api.md
 * section 10, media URLs expire): `oe` is the expiry as hex Unix seconds, `_nc_sig` its signature.
 */
export function mediaAddress(
  store: SimulatedThreadsStore,
  { origin, ttlSeconds }: MediaAddressing,
  imageIndex: number,
): string {
  const file = mediaFile(imageIndex);
  const expires = Math.floor(store.now() / 1000) + ttlSeconds;
  const oe = expires.toString(16).toUpperCase();
  return `${origin}/media/${file}?oe=${oe}&_nc_sig=${store.signMedia(file, expires)}`;
}

/**
 * Serves the seeded pictures at their signed addresses, like Meta's CDN: 403 once `oe` has passed
 * ("URL signature expired") or when the signature does not match. `imageDirs` are searched in order
 * (the built site's copy, then the repository's public/ folder).
 */
export function registerMediaFileRoute(
  app: FastifyInstance,
  { store, imageDirs }: { store: SimulatedThreadsStore; imageDirs: readonly string[] },
): void {
  app.get<{ Params: { file: string }; Querystring: Record<string, string | undefined> }>(
    '/media/:file',
    async (request, reply) => {
      const { file } = request.params;
      const { oe = '', _nc_sig: signature = '' } = request.query;
      const expires = /^[0-9A-Fa-f]{1,12}$/.test(oe) ? Number.parseInt(oe, 16) : Number.NaN;
      // Like a CDN, its pictures load on any origin's pages.
      reply
        .header('Cache-Control', 'no-store')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .type('text/plain; charset=utf-8');
      if (!FILE.test(file) || Number.isNaN(expires) || signature !== store.signMedia(file, expires))
        return reply.status(403).send('URL signature mismatch');
      if (store.now() >= expires * 1000) return reply.status(403).send('URL signature expired');
      for (const dir of imageDirs) {
        const bytes = await readFile(path.join(dir, file)).catch(() => null);
        if (bytes)
          return reply
            .type('image/webp')
            .header(
              'Cache-Control',
              `public, max-age=${Math.max(0, expires - Math.floor(store.now() / 1000))}`,
            )
            .send(bytes);
      }
      return reply.status(404).send('Not found');
    },
  );
}
