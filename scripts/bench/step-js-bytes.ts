/** JavaScript bytes per built page of the 1,000-thread site. */
import type { StepContext } from './context.ts';
import { jsBytesPerPage } from './js-bytes.ts';
import type { JsBytesResult } from './results.ts';

export async function measureJsBytes(context: StepContext): Promise<JsBytesResult> {
  const site = await context.site(context.options.siteCount);
  context.progress("js-bytes: following every page's scripts through their static imports…");
  const pages = await jsBytesPerPage(site.build.siteDir);
  return { threads: site.count, pages, home: pages.find((page) => page.page === '/') ?? null };
}
