// The renderer process (decision 043): imports a build's renderer bundle once and renders the data's
// pages into a site folder on request. Its own process: the build's environment (CATALOGUE_DIR,
// PROFILES_FILE...) is not the server's, and Astro and React stay out of the server's memory.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderedPage, RendererEntry } from '../../../../contract/rendered-pages.ts';
import type { RenderReply, RenderRequest } from './render-messages.ts';

/** Pages rendered at once: they read the same few catalogue files, and writing overlaps rendering. */
const CONCURRENCY = 8;

/** A page's file inside `siteDir`, or an error for a name that would leave it. */
function fileIn(siteDir: string, page: RenderedPage): string {
  const segments = page.file.split('/');
  if (
    segments.some(
      (segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('\0'),
    )
  )
    throw new Error(`The page ${page.url} would be written outside the site (${page.file})`);
  return path.join(siteDir, ...segments);
}

async function renderInto(renderer: RendererEntry, { siteDir, origin }: RenderRequest): Promise<string[]> {
  const pages = await renderer.pagesToRender();
  const renderOne = async (page: RenderedPage) => {
    const body = await renderer.renderPage(origin, page);
    const file = fileIn(siteDir, page);
    await mkdir(path.dirname(file), { recursive: true });
    // A new file, never a write into one in place: the staged site may link the served site's files.
    await rm(file, { force: true });
    await writeFile(file, body);
  };
  for (let start = 0; start < pages.length; start += CONCURRENCY)
    await Promise.all(pages.slice(start, start + CONCURRENCY).map(renderOne));
  return pages.map((page) => page.file);
}

const entry = process.argv[2];
if (!entry || !process.send) throw new Error('Usage: forked with IPC, the renderer entry as the argument');
const send = (reply: RenderReply) => process.send?.(reply);
// eslint-disable-next-line no-restricted-syntax -- a build's output, found at run time: no module of ours
const renderer = (await import(pathToFileURL(entry).href)) as RendererEntry;
// Passes come one at a time from the parent (page-renderer.ts queues them).
process.on('message', (request: RenderRequest) => {
  renderInto(renderer, request).then(
    (files) => send({ files }),
    (error: unknown) =>
      send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
// The parent is gone (it exited or killed its end): nothing more to render.
process.on('disconnect', () => process.exit(0));
send({ ready: true });
