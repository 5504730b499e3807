/** Lighthouse mobile on home at 1k and 100k threads (options.lighthouseCounts), each served by the product from its cached site. */
import type { StepContext } from './context.ts';
import { lighthouseMedians } from './lighthouse.ts';
import { tempDir } from './processes.ts';
import { startProductServer } from './product-server.ts';
import type { LighthouseResult, LighthouseSummary } from './results.ts';

/** Home's Lighthouse medians with the product serving the `count`-thread site. */
export async function lighthouseHome(context: StepContext, count: number): Promise<LighthouseSummary> {
  const { progress } = context;
  const site = await context.site(count);
  const browser = await context.browser();
  progress(`lighthouse: starting the product server on the ${count.toLocaleString('en-US')}-thread site…`);
  const server = await startProductServer({
    port: context.port('product'),
    siteDir: site.build.siteDir,
    dataDir: tempDir(`lighthouse-data-${count}`),
    catalogueDir: site.catalogueDir,
    sampleDir: site.sampleDir,
    core: context.pinning.serverCore,
  });
  try {
    progress(
      `lighthouse: home at ${count.toLocaleString('en-US')} threads, ${context.options.lighthouseRuns} runs…`,
    );
    const home = await lighthouseMedians(
      `${server.baseUrl}/`,
      context.options.lighthouseRuns,
      browser,
      progress,
      !context.options.smoke,
    );
    if (count === context.options.siteCount) context.home1k = home;
    return home;
  } finally {
    await server.stop();
  }
}

export async function measureLighthouse(context: StepContext): Promise<LighthouseResult> {
  const sizes: LighthouseResult['sizes'] = [];
  for (const threads of context.options.lighthouseCounts)
    sizes.push({ threads, home: await lighthouseHome(context, threads) });
  return { sizes };
}
