// How the built site's files are served, shared by the Node server and the static hosts' files (publisher/build/host/).

/** Hashed build assets never change; pages and data are revalidated on every visit. */
export function siteCacheControl(urlPath: string): string {
  if (urlPath.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (urlPath.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * The thread page's template (decision 046): built with the site, filled by the server for
 * `/thread/{id}`, never answered at a path of its own.
 */
export const THREAD_TEMPLATE_FILE = 'thread/template/index.html';

/**
 * A thread page is filled per request from the database: a CDN may keep it a minute and serve it
 * stale for five more while it asks again, so a crowd on a shared link costs one query a minute;
 * a removal is gone from the CDN within about a minute of the next visit.
 */
export const THREAD_PAGE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

/**
 * A link preview picture (decision 048): previews are fetched once per share and kept by the apps
 * that show them, so an hour (a day stale) costs nothing; an edited thread shows within the hour.
 */
export const SOCIAL_IMAGE_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

/**
 * Which files of a built site the Node server serves as pages and assets: not the host files the
 * build adds for static hosts (its copy of the catalogue in data/, which Node serves live from the
 * catalogue folder; _headers; the .br/.gz copies, used as precompressed variants instead).
 */
export function isSiteFile(relativePath: string): boolean {
  return (
    !relativePath.startsWith('data/') &&
    relativePath !== '_headers' &&
    !relativePath.endsWith('.br') &&
    !relativePath.endsWith('.gz')
  );
}

/**
 * Whether a folder of a built site (relative, `/` separators) can hold files the Node server serves:
 * not the catalogue's copy, which at 1M threads is hundreds of thousands of files never to be listed.
 */
export function isSiteFolder(relativeFolder: string): boolean {
  return relativeFolder !== 'data' && !relativeFolder.startsWith('data/');
}

/**
 * The catalogue is revalidated on every visit (its names stay, its content changes), except search
 * shards: their names carry a hash of their content, so they never change.
 */
export function catalogueCacheControl(urlPath: string): string {
  return /^\/data\/search\/(?!index\.json$)[^/]+$/.test(urlPath)
    ? 'public, max-age=31536000, immutable'
    : 'no-cache';
}

/** What is worth compressing; the build's .br/.gz copies (publisher/build/host/precompress.ts) cover the same set. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.xml',
  '.txt',
  '.svg',
  '.webmanifest',
]);
