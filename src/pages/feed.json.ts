import type { APIRoute } from 'astro';
import { readNewestCards } from '../lib/build-catalogue.ts';
import { FEED_LIMIT, buildJsonFeed, requireSite } from '../lib/feeds.ts';

// Rendered by the publisher's renderer after each change to the catalogue, not by a build (decision 043).
export const prerender = false;

/** JSON Feed 1.1 of the newest approved threads (a static file cannot be served as application/feed+json). */
export const GET: APIRoute = async ({ site }) =>
  Response.json(buildJsonFeed(await readNewestCards(FEED_LIMIT), requireSite(site)));
