import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { readPublishedDigests } from '../../lib/build-digests.ts';
import { digestRssOptions } from '../../lib/digest-feeds.ts';
import { requireSite } from '../../lib/feeds.ts';

// Rendered by the publisher's renderer after each change (decision 043).
export const prerender = false;

/** RSS 2.0 feed of the published weekly digests, one item per digest (decision 057). */
export const GET: APIRoute = async ({ site }) =>
  rss(digestRssOptions(await readPublishedDigests(), requireSite(site)));
