/**
 * Test-only: a site built from a catalogue whose cards are mostly shown through Threads' embed
 * (decision 070), served by the server's own static serving with a stand-in for Meta's embed script
 * at EMBED_STAND_IN_PATH: it replaces each embed blockquote on the page with a frame, as Meta's does.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { PublishedDigest } from '../../../contract/digest-page.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { buildSampleCards } from '../../../scripts/sample/catalogue.ts';
import { buildSite, type SiteBuildOptions } from '../../../server/publisher/build/build-site.ts';
import { catalogueDatesFrom, writeCatalogue } from '../../../server/publisher/export/export-catalogue.ts';
import { mountServedSite } from '../../../server/publisher/serve/mount.ts';
import { ServedSite } from '../../../server/publisher/serve/served-site.ts';
import { E2E_PORT, TEST_SITE } from '../../site-under-test.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../test-output/embed');
const PUBLIC_URL = `http://127.0.0.1:${E2E_PORT + 20}`;

/** Where the stand-in for Meta's embed script is served. */
export const EMBED_STAND_IN_PATH = '/embed-stand-in.js';

export const EMBED_SITE: SiteBuildOptions = {
  ...TEST_SITE,
  siteDir: path.join(ROOT, 'site'),
  catalogueDir: path.join(ROOT, 'catalogue'),
  digestsFile: path.join(ROOT, 'digests.json'),
  publicUrl: PUBLIC_URL,
  embedScriptUrl: `${PUBLIC_URL}${EMBED_STAND_IN_PATH}`,
};

/** Threads in the catalogue: more than a page (24), so 'Show more' adds embed cards. */
export const EMBED_SITE_THREADS = 30;

/** The published digest the site renders, holding two embedded posts and one card. */
export const EMBED_DIGEST_ID = '2026-47';

// Replaces every embed blockquote not yet replaced with a frame naming its permalink, as Meta's
// script turns each into a frame of the post; counts its runs on `window`.
const STAND_IN = `
window.__embedRuns = (window.__embedRuns || 0) + 1;
for (const quote of document.querySelectorAll('blockquote.text-post-media')) {
  const frame = document.createElement('iframe');
  frame.className = 'stand-in-frame';
  frame.title = 'Threads post';
  frame.dataset.permalink = quote.getAttribute('data-text-post-permalink');
  frame.style.cssText = 'width: 100%; height: 320px; border: 0';
  quote.replaceWith(frame);
}
`;

function uuid(index: number): string {
  return `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
}

/**
 * The catalogue's cards, newest first: every card but each third is an embed (stripped as the
 * export strips it: no copy, its author the handle in the permalink); the second's is a /t/ link.
 */
export function embedSiteCards(): ThreadCard[] {
  return buildSampleCards(EMBED_SITE_THREADS, new Date('2026-11-22T12:00:00.000Z')).map((card, i) => {
    const username = card.handle.replace(/^@/, '');
    const permalink =
      i === 1
        ? `https://www.threads.com/t/EMBEDT${i}`
        : `https://www.threads.com/@${username}/post/EMBED${i}`;
    const own = { ...card, id: uuid(i), permalink };
    if (i % 3 === 2) return own;
    const author = i === 1 ? 'Threads post' : username;
    return {
      ...own,
      author,
      handle: i === 1 ? author : `@${username}`,
      content: '',
      image: null,
      likes: null,
      replies: null,
      display: 'embed' as const,
    };
  });
}

/** Writes the catalogue and the digest, and builds the site from them. */
export async function buildEmbedSite(): Promise<ThreadCard[]> {
  const cards = embedSiteCards();
  await rm(EMBED_SITE.catalogueDir, { recursive: true, force: true });
  await mkdir(ROOT, { recursive: true });
  await writeCatalogue(EMBED_SITE.catalogueDir, cards, catalogueDatesFrom(new Date(), 60));
  const digest: PublishedDigest = {
    id: EMBED_DIGEST_ID,
    year: 2026,
    week: 47,
    published_at: '2026-11-23T01:00:00.000Z',
    note: 'Three for the week.',
    cards: cards.slice(0, 3),
  };
  await writeFile(EMBED_SITE.digestsFile ?? '', JSON.stringify([digest]));
  await buildSite(EMBED_SITE);
  return cards;
}

/** Serves the built site and the stand-in script on EMBED_SITE's origin; close it when done. */
export async function serveEmbedSite(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get(EMBED_STAND_IN_PATH, async (_request, reply) =>
    reply.type('text/javascript').header('cache-control', 'no-store').send(STAND_IN),
  );
  mountServedSite(
    app,
    await ServedSite.load({
      siteDir: EMBED_SITE.siteDir,
      catalogueDir: EMBED_SITE.catalogueDir,
      secure: false,
    }),
  );
  const { port, hostname } = new URL(PUBLIC_URL);
  await app.listen({ port: Number(port), host: hostname });
  return app;
}
