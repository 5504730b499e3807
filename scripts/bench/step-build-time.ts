/**
 * Build time per 1,000 threads: fresh builds at 1,000 and at a larger count (not the cached sites),
 * the marginal seconds per 1,000 and their ratio to DESIGN's minimal-template reference.
 */
import path from 'node:path';
import { buildSite } from '../../server/publisher/build/build-site.ts';
import { BUILD_REFERENCE_SECONDS } from './budgets.ts';
import type { StepContext } from './context.ts';
import { tempDir } from './processes.ts';
import type { BuildTimeResult } from './results.ts';
import { siteOptions, writeSyntheticCatalogue } from './sites.ts';
import { marginalPerThousand, ratio } from './stats.ts';

async function timedBuild(
  context: StepContext,
  dir: string,
  catalogueDir: string,
  count: number,
): Promise<number> {
  context.progress(`build-time: building ${count.toLocaleString('en-US')} threads…`);
  const started = performance.now();
  await buildSite(siteOptions(dir, catalogueDir, context.productUrl), { capture: true });
  const seconds = (performance.now() - started) / 1000;
  context.progress(`build-time: ${count.toLocaleString('en-US')} threads in ${seconds.toFixed(1)} s`);
  return seconds;
}

export async function measureBuildTime(context: StepContext): Promise<BuildTimeResult> {
  const largeCount = context.options.buildCount;
  const root = tempDir('build-time');
  const smallDir = path.join(root, 'small');
  const largeDir = path.join(root, 'large');
  context.progress(
    `build-time: writing catalogues of ${context.options.siteCount.toLocaleString('en-US')} and ${largeCount.toLocaleString('en-US')} threads…`,
  );
  const smallCount = context.options.siteCount;
  const small = await writeSyntheticCatalogue(smallDir, smallCount);
  const large = await writeSyntheticCatalogue(largeDir, largeCount);
  // Each size builds twice, alternating, and counts its quicker run: the first build also warms the
  // disk cache and Astro's own start-up, and a build slowed by a neighbour's burst counts less.
  const smallRuns: number[] = [];
  const largeRuns: number[] = [];
  for (let round = 0; round < context.options.buildRounds; round++) {
    smallRuns.push(await timedBuild(context, smallDir, small.catalogueDir, smallCount));
    largeRuns.push(await timedBuild(context, largeDir, large.catalogueDir, largeCount));
  }
  const smallSeconds = Math.min(...smallRuns);
  const largeSeconds = Math.min(...largeRuns);
  const perThousandSeconds = marginalPerThousand(
    { count: smallCount, value: smallSeconds },
    { count: largeCount, value: largeSeconds },
  );
  return {
    small: { count: smallCount, seconds: smallSeconds },
    large: { count: largeCount, seconds: largeSeconds },
    perThousandSeconds,
    referenceSeconds: BUILD_REFERENCE_SECONDS,
    ratio: ratio(perThousandSeconds, BUILD_REFERENCE_SECONDS),
  };
}
