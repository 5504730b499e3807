import type { APIRoute } from 'astro';
import { readTopicPage } from '../../../lib/build-catalogue.ts';
import { FEED_LIMIT, buildJsonFeed, requireSite } from '../../../lib/feeds.ts';

// One feed per topic page, rendered by the publisher's renderer (decision 043).
export const prerender = false;

/** JSON Feed 1.1 of a topic's newest approved threads. */
export const GET: APIRoute = async ({ params, site }) => {
  const page = await readTopicPage(params.slug ?? '', FEED_LIMIT);
  if (!page) return new Response(null, { status: 404 });
  return Response.json(buildJsonFeed(page.cards, requireSite(site), page.topic));
};
