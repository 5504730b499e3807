import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { filesUnder } from '../../export/files-under.ts';
import { pageCsp } from '../../../http/page-csp.ts';

/** The options every page's CSP is computed with (the same for every page of one build). */
export type PageCspOptions = Parameters<typeof pageCsp>[1];

/** One built HTML page: its file, the browser paths that show it, and its exact CSP. */
export interface SitePage {
  /** Relative to the site folder, with `/` separators: `privacy/index.html`. */
  file: string;
  /** `/` for home; `/x` and `/x/` for a directory page; `/x` for `x.html`; none for 404.html. */
  paths: string[];
  csp: string;
}

/** Where a built site carries its copy of the public catalogue: served at /data/* by a CDN or nginx. */
export const SITE_DATA_DIR = 'data';

/** The not-found page: answers every unknown path (status 404), never a path of its own. */
export const NOT_FOUND_PAGE = '404.html';

/** The browser paths a built HTML file answers at (the Node server's `StaticStore.resolve`). */
export function pagePaths(file: string): string[] {
  if (file === NOT_FOUND_PAGE) return [];
  if (file === 'index.html') return ['/'];
  if (file.endsWith('/index.html')) {
    const dir = `/${file.slice(0, -'/index.html'.length)}`;
    return [dir, `${dir}/`];
  }
  return [`/${file.slice(0, -'.html'.length)}`];
}

/**
 * Every HTML page of a built site (outside `data/`), sorted by file, with the CSP the Node server
 * sends for it.
 */
export async function sitePages(siteDir: string, cspOptions: PageCspOptions): Promise<SitePage[]> {
  const files = (await filesUnder(siteDir, '', (folder) => folder === SITE_DATA_DIR))
    .filter((file) => file.endsWith('.html'))
    .filter((file) => !file.split('/').some((part) => part.startsWith('.')))
    .sort();
  return Promise.all(
    files.map(async (file) => ({
      file,
      paths: pagePaths(file),
      csp: pageCsp(await readFile(path.join(siteDir, file), 'utf8'), cspOptions),
    })),
  );
}
