import rss from '@astrojs/rss';
import type { APIRoute, GetStaticPaths } from 'astro';
import type { CatalogueTopic } from '../../../../contract/topics.ts';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { readCatalogueTopics } from '../../../lib/build-catalogue.ts';
import { FEED_LIMIT, buildRssOptions, requireSite } from '../../../lib/feeds.ts';

interface Props {
  topic: CatalogueTopic;
  cards: ThreadCard[];
}

/** One feed per topic page. */
export const getStaticPaths = (async () =>
  (await readCatalogueTopics(FEED_LIMIT)).map(({ topic, cards }) => ({
    params: { slug: topic.slug },
    props: { topic, cards },
  }))) satisfies GetStaticPaths;

/** RSS 2.0 feed of a topic's newest approved threads. */
export const GET: APIRoute<Props> = ({ props, site }) =>
  rss(buildRssOptions(props.cards, requireSite(site), props.topic));
