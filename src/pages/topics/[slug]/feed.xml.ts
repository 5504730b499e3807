import rss from '@astrojs/rss';
import type { APIRoute, GetStaticPaths } from 'astro';
import { topicStaticPaths, type TopicPageProps } from '../../../lib/build-catalogue.ts';
import { FEED_LIMIT, buildRssOptions, requireSite } from '../../../lib/feeds.ts';

/** One feed per topic page. */
export const getStaticPaths = (() => topicStaticPaths(FEED_LIMIT)) satisfies GetStaticPaths;

/** RSS 2.0 feed of a topic's newest approved threads. */
export const GET: APIRoute<TopicPageProps> = ({ props, site }) =>
  rss(buildRssOptions(props.cards, requireSite(site), props.topic));
