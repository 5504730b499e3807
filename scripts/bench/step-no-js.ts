/** Home's LCP as built vs the same HTML with every script removed, served by nginx from the same dist. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StepContext } from './context.ts';
import { lighthouseMedians } from './lighthouse.ts';
import { startNginx } from './nginx.ts';
import { withoutScripts } from './no-js.ts';
import { tempDir } from './processes.ts';
import type { NoJsResult } from './results.ts';
import { ratio } from './stats.ts';
import { lighthouseHome } from './step-lighthouse.ts';

const NO_JS_PAGE = '/no-js.html';

export async function measureNoJs(context: StepContext): Promise<NoJsResult> {
  const { progress } = context;
  const count = context.options.siteCount;
  const site = await context.site(count);
  const withJs = context.home1k ?? (await lighthouseHome(context, count));
  const folder = tempDir('no-js');
  const html = await readFile(path.join(site.build.siteDir, 'index.html'), 'utf8');
  await writeFile(path.join(folder, NO_JS_PAGE.slice(1)), withoutScripts(html));
  progress('no-js: nginx serving the dist and a copy of home without scripts…');
  const nginx = await startNginx(
    {
      prefix: tempDir('nginx-no-js'),
      root: site.build.siteDir,
      port: context.port('nginx'),
      extraFiles: { [NO_JS_PAGE]: folder },
      // Compressed like the product's answers, so that the difference is the scripts, not the bytes.
      gzipOnTheFly: true,
    },
    context.pinning.serverCore,
  );
  try {
    const noJs = await lighthouseMedians(
      `${nginx.baseUrl}${NO_JS_PAGE}`,
      context.options.lighthouseRuns,
      await context.browser(),
      progress,
      !context.options.smoke,
    );
    return { withJs, noJs, ratio: ratio(withJs.lcpMs, noJs.lcpMs) };
  } finally {
    await nginx.stop();
  }
}
