/**
 * Lighthouse mobile on home at 1k and 100k threads (options.lighthouseCounts), each served by the
 * product from its cached site; at the default size only (options.siteCount) also its largest topic
 * page; and a thread page and a profile on the live server, whose database holds them (see
 * lighthouse-pages.ts). Every page: the same runs, warm-up and medians. A smoke run audits one page
 * per code path (smoke-plan.ts): the others' paths are still found and checked as served.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { StepContext } from './context.ts';
import { approvedProfilePath, approvedThreadPath, largestTopicPath } from './lighthouse-pages.ts';
import { lighthouseMedians } from './lighthouse.ts';
import { migratedDataDir } from './migrated-data.ts';
import { startProductServer } from './product-server.ts';
import type { LighthousePage, LighthouseResult, LighthouseSummary } from './results.ts';
import { served } from './step-approval.ts';

/** What served the thread page and the profile, as the report says it. */
const LIVE_SITE = 'live server, cards';
/** The same database and site folder, restarted with PUBLIC_POST_DISPLAY=embed (decision 070). */
const EMBED_SITE = "live server, Threads' embed (the simulator's stand-in script)";

/** Whether a smoke run has paired a page with the blank page yet: once shows that code path works. */
let smokePairedBlank = false;

/**
 * The medians of `path` on the server at `baseUrl`, with the step's runs and warm-up, each beside the
 * blank page (in a smoke run, the first page only).
 */
async function measure(
  context: StepContext,
  baseUrl: string,
  path: string,
  what: string,
): Promise<LighthouseSummary> {
  const { options, progress } = context;
  progress(`lighthouse: ${what} ${path}, ${options.lighthouseRuns} runs…`);
  // Taken before the runs: a smoke's lanes measure side by side, and only the first pairs.
  const pairBlank = !options.smoke || !smokePairedBlank;
  smokePairedBlank = true;
  return lighthouseMedians(
    `${baseUrl}${path}`,
    options.lighthouseRuns,
    await context.browser(),
    progress,
    !options.smoke,
    pairBlank ? (await context.blankPage()).url : undefined,
  );
}

/**
 * Home's medians with the product serving the `count`-thread site, and with `withTopic` its largest
 * topic page's, on the same server.
 */
async function onSite(
  context: StepContext,
  count: number,
  withTopic: boolean,
): Promise<{ home: LighthouseSummary; topic: LighthousePage | null }> {
  const { progress } = context;
  const site = await context.site(count);
  const threads = count.toLocaleString('en-US');
  progress(`lighthouse: starting the product server on the ${threads}-thread site…`);
  const server = await startProductServer({
    port: context.port('product'),
    siteDir: site.build.siteDir,
    dataDir: await migratedDataDir(`lighthouse-data-${count}`),
    catalogueDir: site.catalogueDir,
    sampleDir: site.sampleDir,
    core: context.pinning.serverCore,
  });
  try {
    const home = await measure(context, server.baseUrl, '/', `home at ${threads} threads:`);
    if (count === context.options.siteCount) context.home1k = home;
    if (!withTopic) return { home, topic: null };
    const topicPath = await largestTopicPath(site.catalogueDir);
    if (context.options.smoke) {
      await servedOrThrow(`${server.baseUrl}${topicPath}`, '<html', 'the largest topic page');
      return { home, topic: null };
    }
    const summary = await measure(
      context,
      server.baseUrl,
      topicPath,
      `the largest topic at ${threads} threads:`,
    );
    return { home, topic: { page: 'topic', site: `${threads}-thread site`, summary } };
  } finally {
    await server.stop();
  }
}

/** Throws unless `url` answers 2xx with `text` (a page a smoke run finds but does not audit). */
async function servedOrThrow(url: string, text: string, what: string): Promise<void> {
  if (!(await served(url, text))) throw new Error(`${what} (${url}) is not served`);
}

/** Home's Lighthouse medians with the product serving the `count`-thread site (the no-JS step's too). */
export async function lighthouseHome(context: StepContext, count: number): Promise<LighthouseSummary> {
  return (await onSite(context, count, false)).home;
}

/**
 * The thread page, the profile and home on the live server (started here when no earlier step did),
 * as cards; then home and the same thread page with the same database shown through Threads' embed.
 */
async function livePages(context: StepContext): Promise<LighthousePage[]> {
  const { progress } = context;
  const live = await context.live();
  const threadPath = await approvedThreadPath(live, progress);
  const profilePath = await approvedProfilePath(live, progress);
  const base = live.server.baseUrl;
  const page = async (kind: string, at: string, what: string): Promise<LighthousePage> => ({
    page: kind,
    site: LIVE_SITE,
    summary: await measure(context, base, at, what),
  });
  // The smoke audits the thread page alone: home is audited on the cached site, and the profile was
  // found rendered by approvedProfilePath.
  const cards: LighthousePage[] = context.options.smoke
    ? [await page('thread', threadPath, 'a thread page:')]
    : [
        await page('home', '/', 'home, cards:'),
        await page('thread', threadPath, 'a thread page:'),
        await page('profile', profilePath, 'a profile:'),
      ];
  const { DATA_DIR: dataDir = '', SITE_DIR: siteDir = '' } = live.server.env;
  await context.stopLive();
  return [...cards, ...(await embedPages(context, { dataDir, siteDir, threadPath }))];
}

/**
 * Home and the thread page of the live server's database with PUBLIC_POST_DISPLAY=embed: the server
 * restarts on the same folders, exports its cards again without their copy and rebuilds its site.
 */
async function embedPages(
  context: StepContext,
  { dataDir, siteDir, threadPath }: { dataDir: string; siteDir: string; threadPath: string },
): Promise<LighthousePage[]> {
  context.progress("lighthouse: restarting the live server with Threads' embed (it rebuilds its site)…");
  const server = await startProductServer({
    port: context.port('product'),
    siteDir,
    dataDir,
    core: context.pinning.serverCore,
    env: { PUBLIC_POST_DISPLAY: 'embed' },
    readyPaths: ['/api/health', '/', threadPath],
  });
  try {
    await embedded(server.baseUrl);
    await server.settle();
    const page = async (kind: string, at: string, what: string): Promise<LighthousePage> => ({
      page: kind,
      site: EMBED_SITE,
      summary: await measure(context, server.baseUrl, at, what),
    });
    // The smoke audits the embed's thread page alone: its home runs the same embed script.
    if (context.options.smoke) return [await page('thread', threadPath, 'a thread page, embed:')];
    return [
      await page('home', '/', 'home, embed:'),
      await page('thread', threadPath, 'a thread page, embed:'),
    ];
  } finally {
    await server.stop();
  }
}

/** Waits until the server's first catalogue page shows its cards through the embed (bounded: 5 minutes). */
async function embedded(baseUrl: string): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < 5 * 60_000) {
    const page = (await fetch(`${baseUrl}/data/pages/all/1.json`)
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null)) as { cards?: { display?: string }[] } | null;
    if (page?.cards?.some((card) => card.display === 'embed')) return;
    await sleep(500);
  }
  throw new Error("the restarted server never exported a card shown through Threads' embed");
}

/** The live server's pages (cards, then Threads' embed); the live server is stopped after them. */
export async function lighthouseLive(context: StepContext): Promise<LighthousePage[]> {
  try {
    return await livePages(context);
  } finally {
    await context.stopLive();
  }
}

/** Home on each cached site, and the largest topic at the default size. */
export async function lighthouseSites(context: StepContext): Promise<LighthouseResult> {
  const sizes: LighthouseResult['sizes'] = [];
  const pages: LighthousePage[] = [];
  for (const threads of context.options.lighthouseCounts) {
    const { home, topic } = await onSite(context, threads, threads === context.options.siteCount);
    sizes.push({ threads, home });
    if (topic) pages.push(topic);
  }
  return { sizes, pages };
}

export async function measureLighthouse(context: StepContext): Promise<LighthouseResult> {
  // The live server holds the product's port: its pages first, then it stops for the cached sites'.
  const live = await lighthouseLive(context);
  const { sizes, pages } = await lighthouseSites(context);
  return { sizes, pages: [...pages, ...live] };
}
