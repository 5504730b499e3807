import type { APIRoute } from 'astro';
import { digestPath } from '../../contract/digest.ts';
import { topicPath } from '../../contract/topics.ts';
import { readCatalogueTopics } from '../lib/build-catalogue.ts';
import { readPublishedDigests } from '../lib/build-digests.ts';
import { readPublishedProfiles } from '../lib/build-profiles.ts';
import { PUBLIC_PAGES } from '../lib/public-pages.ts';

// Rendered by the publisher's renderer after each change to the catalogue, not by a build (decision 043).
export const prerender = false;

/** sitemap.xml of the indexable static pages, the topic pages, the member profiles and the digests, on the configured site. */
export const GET: APIRoute = async ({ site }) => {
  // Only the topics are needed here, not their cards.
  const topics = (await readCatalogueTopics(0)).map(({ topic }) => topicPath(topic.slug));
  const profiles = (await readPublishedProfiles()).map((profile) => `/${profile.username}`);
  const digests = (await readPublishedDigests()).map((digest) => digestPath(digest.id));
  const urls = [
    ...PUBLIC_PAGES,
    ...(topics.length > 0 ? ['/topics', ...topics] : []),
    ...profiles,
    ...digests,
  ]
    .map((page) => `  <url><loc>${new URL(page, site).href}</loc></url>`)
    .join('\n');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
