// The renderer's server entry (decision 043): the build bundles it with the pages marked
// `prerender = false`, and the publisher renders them through it after each change to the data.
import { createApp } from 'astro/app/entrypoint';
import { readCatalogueTopics, renewCatalogueReads } from '../lib/build-catalogue.ts';
import { readPublishedDigests } from '../lib/build-digests.ts';
import { readPublishedProfiles } from '../lib/build-profiles.ts';
import type { RenderedPage, RendererEntry } from '../../contract/rendered-pages.ts';

const app = createApp();

/** A page of the `directory` build format: `/a/b/` is `a/b/index.html`. */
const folderPage = (segments: string[]): RenderedPage => ({
  url: `/${segments.map(encodeURIComponent).join('/')}/`.replace(/^\/\/$/, '/'),
  file: [...segments, 'index.html'].join('/'),
});
const filePage = (segments: string[]): RenderedPage => ({
  url: `/${segments.map(encodeURIComponent).join('/')}`,
  file: segments.join('/'),
});

/**
 * Every page the data decides, as they are now on disk: the home and filter pages, the topics and
 * each topic's page and feeds (with their page), the feeds and their page, the sitemap, About, each
 * approved profile, the digests. Every page marked `prerender = false` is here (a test checks); the other pages
 * are built once per code change.
 */
export const pagesToRender: RendererEntry['pagesToRender'] = async () => {
  // A new pass reads the catalogue again: the last one's reads are of an older export.
  renewCatalogueReads();
  const topics = (await readCatalogueTopics(0)).map(({ topic }) => topic.slug);
  const profiles = (await readPublishedProfiles()).map(({ username }) => username);
  const digests = (await readPublishedDigests()).map(({ id }) => id);
  return [
    folderPage([]),
    folderPage(['filter', 'text']),
    folderPage(['filter', 'images']),
    folderPage(['about']),
    folderPage(['topics']),
    folderPage(['feed']),
    filePage(['feed.xml']),
    filePage(['feed.json']),
    filePage(['sitemap.xml']),
    ...topics.flatMap((slug) => [
      folderPage(['topics', slug]),
      folderPage(['topics', slug, 'feed']),
      filePage(['topics', slug, 'feed.xml']),
      filePage(['topics', slug, 'feed.json']),
    ]),
    ...profiles.map((username) => folderPage([username])),
    // The digests and their feeds (decision 057): a year adds 52 pages.
    folderPage(['digest']),
    filePage(['digest', 'feed.xml']),
    filePage(['digest', 'feed.json']),
    ...digests.map((id) => folderPage(['digest', id])),
  ];
};

/** Renders one page; a page that does not answer 200 is an error (its data went missing meanwhile). */
export const renderPage: RendererEntry['renderPage'] = async (origin, page) => {
  const response = await app.render(new Request(new URL(page.url, origin)));
  if (response.status !== 200) throw new Error(`${page.url} answered ${response.status}`);
  return response.text();
};
