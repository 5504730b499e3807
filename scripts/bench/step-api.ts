/** Hot API reads (health, auth config, a public profile) vs a bare Fastify route, one after the other. */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import type { StepContext } from './context.ts';
import { MEMBER, profileExported, waitUntilPublished } from './live-server.ts';
import { measureLoad } from './load.ts';
import { siteClient } from '../../tests/integration/helpers/site-client.ts';
import { startTracked } from './processes.ts';
import { RATE_LIMIT_MULTIPLIER } from './product-server.ts';
import type { ApiResult, LoadComparison, LoadResult } from './results.ts';
import { ratio } from './stats.ts';

/**
 * Starts the bare Fastify route and hands `use` a function that measures it: the reference is
 * measured again beside each product path, so a drift of the machine moves both sides of a ratio.
 */
async function withBare<T>(
  context: StepContext,
  use: (measureBare: () => Promise<LoadResult>) => Promise<T>,
): Promise<T> {
  const { pinning, options, progress } = context;
  const port = context.port('bare');
  const bare = startTracked(
    process.execPath,
    [path.join(PROJECT_ROOT, 'scripts/bench/bare-fastify.ts'), String(port)],
    {
      core: pinning.serverCore,
    },
  );
  try {
    for (let attempt = 0; !bare.output().includes('listening'); attempt++) {
      if (bare.child.exitCode !== null || attempt > 100)
        throw new Error(`the bare Fastify did not start:\n${bare.output()}`);
      await sleep(100);
    }
    return await use(() => {
      progress(`api: bare Fastify route (warm-up, then ${options.loadSeconds} s)…`);
      return measureLoad(`http://127.0.0.1:${port}/`, {
        seconds: options.loadSeconds,
        core: pinning.loadCore,
        warmUp: !options.smoke,
      });
    });
  } finally {
    await bare.stop();
  }
}

export async function measureApi(context: StepContext): Promise<ApiResult> {
  const { progress, options, pinning } = context;
  const live = await context.live();
  const base = live.server.baseUrl;
  progress(`api: signing ${MEMBER} in, requesting an invite, the admin approving it…`);
  await siteClient(base).approvedMember(base, MEMBER);
  progress('api: waiting for the profile export and the rebuild it starts (none may run under load)…');
  await waitUntilPublished(live, () => profileExported(live, MEMBER), 'the member profile');

  const paths = [
    { label: 'health', path: '/api/health' },
    { label: 'auth config', path: '/api/auth/config' },
    { label: 'public profile', path: `/api/user/profile/${MEMBER}` },
  ];
  const comparisons: LoadComparison[] = [];
  await withBare(context, async (measureBare) => {
    for (const target of paths) {
      const reference = await measureBare();
      progress(`api: ${target.path} (warm-up, then ${options.loadSeconds} s)…`);
      const product = await measureLoad(`${base}${target.path}`, {
        seconds: options.loadSeconds,
        core: pinning.loadCore,
        warmUp: !options.smoke,
      });
      const result = {
        ...target,
        product,
        reference,
        ratio: ratio(product.requestsPerSec, reference.requestsPerSec),
      };
      progress(
        `api: ${target.label}: ${Math.round(product.requestsPerSec)} vs ${Math.round(reference.requestsPerSec)} req/s (${result.ratio?.toFixed(2)}x), p99 ${product.p99Ms} ms, ${product.errors} errors`,
      );
      comparisons.push(result);
    }
  });
  return {
    reference: 'a bare Fastify route (one app.get, logging off; measured right before each path)',
    rateLimitMultiplier: RATE_LIMIT_MULTIPLIER,
    comparisons,
  };
}
