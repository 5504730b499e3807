/** Static files: the product and nginx serving the same dist, a small file, home and the largest JS. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StepContext } from './context.ts';
import { measureLoad } from './load.ts';
import { startNginx } from './nginx.ts';
import { migratedDataDir } from './migrated-data.ts';
import { tempDir } from './processes.ts';
import { startProductServer } from './product-server.ts';
import type { LoadComparison, StaticResult } from './results.ts';
import { ratio } from './stats.ts';

const HEADERS = { 'accept-encoding': 'br, gzip' };

/** The largest `/_astro/*.js` of a built site, as a URL path. */
async function largestScript(siteDir: string): Promise<string> {
  const dir = path.join(siteDir, '_astro');
  const names = (await readdir(dir)).filter((name) => name.endsWith('.js'));
  const sizes = await Promise.all(
    names.map(async (name) => ({ name, size: (await stat(path.join(dir, name))).size })),
  );
  const largest = sizes.sort((a, b) => b.size - a.size)[0];
  if (!largest) throw new Error(`no JavaScript in ${dir}`);
  return `/_astro/${largest.name}`;
}

export async function measureStatic(context: StepContext): Promise<StaticResult> {
  const { progress, pinning, options } = context;
  const site = await context.site(context.options.siteCount);
  const siteDir = site.build.siteDir;
  const large = await largestScript(siteDir);
  const targets = [
    { label: 'small file', path: '/robots.txt' },
    { label: 'home', path: '/' },
    { label: 'largest JS', path: large },
  ];
  progress(`static: starting the product server on the ${site.count.toLocaleString('en-US')}-thread site…`);
  const product = await startProductServer({
    port: context.port('product'),
    siteDir,
    dataDir: await migratedDataDir('static-data'),
    catalogueDir: site.catalogueDir,
    sampleDir: site.sampleDir,
    core: pinning.serverCore,
  });
  try {
    progress('static: starting nginx (reference config) on the same dist…');
    const nginx = await startNginx(
      { prefix: tempDir('nginx-static'), root: siteDir, port: context.port('nginx') },
      pinning.serverCore,
    );
    try {
      const comparisons: LoadComparison[] = [];
      const settings = {
        seconds: options.loadSeconds,
        core: pinning.loadCore,
        headers: HEADERS,
        warmUp: !options.smoke,
      };
      for (const target of targets) {
        progress(`static: ${target.label} ${target.path}, product (warm-up, then ${options.loadSeconds} s)…`);
        const productRun = await measureLoad(`${product.baseUrl}${target.path}`, settings);
        progress(`static: ${target.label} ${target.path}, nginx…`);
        const reference = await measureLoad(`${nginx.baseUrl}${target.path}`, settings);
        const result = {
          ...target,
          product: productRun,
          reference,
          ratio: ratio(productRun.requestsPerSec, reference.requestsPerSec),
        };
        progress(
          `static: ${target.label}: ${Math.round(productRun.requestsPerSec)} vs ${Math.round(reference.requestsPerSec)} req/s (${result.ratio?.toFixed(2)}x)`,
        );
        comparisons.push(result);
      }
      if (
        comparisons.some(
          ({ product: p, reference: r }) => r.encoding === 'identity' && p.encoding !== 'identity',
        )
      )
        context.notes.push(
          'static: where nginx sent `identity`, the dist has no precompressed .gz beside the file (gzip_static serves one when it exists) while the product sends compressed bytes: compare the "sent" columns',
        );
      return { reference: 'nginx (reference config, gzip_static, one worker)', comparisons };
    } finally {
      await nginx.stop();
    }
  } finally {
    await product.stop();
  }
}
