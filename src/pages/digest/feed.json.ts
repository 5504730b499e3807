import type { APIRoute } from 'astro';
import { readPublishedDigests } from '../../lib/build-digests.ts';
import { digestJsonFeed } from '../../lib/digest-feeds.ts';
import { requireSite } from '../../lib/feeds.ts';

// Rendered by the publisher's renderer after each change (decision 043).
export const prerender = false;

/** JSON Feed 1.1 of the published weekly digests, one item per digest (decision 057). */
export const GET: APIRoute = async ({ site }) =>
  Response.json(digestJsonFeed(await readPublishedDigests(), requireSite(site)));
