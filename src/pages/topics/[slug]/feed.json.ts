import type { APIRoute, GetStaticPaths } from 'astro';
import { topicStaticPaths, type TopicPageProps } from '../../../lib/build-catalogue.ts';
import { FEED_LIMIT, buildJsonFeed, requireSite } from '../../../lib/feeds.ts';

/** One feed per topic page. */
export const getStaticPaths = (() => topicStaticPaths(FEED_LIMIT)) satisfies GetStaticPaths;

/** JSON Feed 1.1 of a topic's newest approved threads. */
export const GET: APIRoute<TopicPageProps> = ({ props, site }) =>
  Response.json(buildJsonFeed(props.cards, requireSite(site), props.topic));
