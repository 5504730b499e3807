import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { visibleFilesUnder } from '../../export/files-under.ts';
import { escapeAttributeBrackets } from '../../../http/html-tags.ts';
import { pageCsp } from '../../../http/page-csp.ts';
import { isSiteFolder, THREAD_TEMPLATE_FILE } from '../../../http/site-files.ts';

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

/** The not-found page: answers every unknown path (status 404), never a path of its own. */
export const NOT_FOUND_PAGE = '404.html';

/** The browser paths a built HTML file answers at (the Node server's `StaticStore.resolve`). */
export function pagePaths(file: string): string[] {
  // The thread template is filled by the Node server for /thread/{id} (decision 046), never served as it is.
  if (file === NOT_FOUND_PAGE || file === THREAD_TEMPLATE_FILE) return [];
  if (file === 'index.html') return ['/'];
  if (file.endsWith('/index.html')) {
    const dir = `/${file.slice(0, -'/index.html'.length)}`;
    return [dir, `${dir}/`];
  }
  return [`/${file.slice(0, -'.html'.length)}`];
}

/** A page as it is served: `<` and `>` in its attribute values rewritten on disk, read once. */
async function servedPage(file: string): Promise<string> {
  const html = await readFile(file, 'utf8');
  // Astro escapes only `&` and `"` in attribute values: a bio in `<meta name="description">` or an
  // island's props could read as markup to a tool that scans the page (a browser reads the same).
  const escaped = escapeAttributeBrackets(html);
  if (escaped !== html) await writeFile(file, escaped);
  return escaped;
}

/**
 * Every HTML page of a built site (outside `data/`), sorted by file, with the CSP the Node server
 * sends for it. Each page is written with the brackets of its attribute values as entities first
 * (decision 039), so the CSP, the compressed copies and the server all describe that page.
 */
export async function sitePages(siteDir: string, cspOptions: PageCspOptions): Promise<SitePage[]> {
  const files = (await visibleFilesUnder(siteDir, (folder) => !isSiteFolder(folder)))
    .filter((file) => file.endsWith('.html'))
    .sort();
  return Promise.all(
    files.map(async (file) => ({
      file,
      paths: pagePaths(file),
      csp: pageCsp(await servedPage(path.join(siteDir, file)), cspOptions),
    })),
  );
}
