import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { readNewestCards } from '../lib/build-catalogue.ts';
import { FEED_LIMIT, buildRssOptions, requireSite } from '../lib/feeds.ts';

// Rendered by the publisher's renderer after each change to the catalogue, not by a build (decision 043).
export const prerender = false;

/** RSS 2.0 feed of the newest approved threads. */
export const GET: APIRoute = async ({ site }) =>
  rss(buildRssOptions(await readNewestCards(FEED_LIMIT), requireSite(site)));
