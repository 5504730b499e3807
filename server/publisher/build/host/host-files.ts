import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PUBLIC_CATALOGUE_FILE } from '../../export/catalogue-files.ts';
import { linkOrCopy, siblingsOf } from '../../export/atomic-file.ts';
import { filesUnder } from '../../export/files-under.ts';
import { HEADERS_FILE, headersFile, headersFileWarnings } from './headers-file.ts';
import { nginxServerBlock } from './nginx.ts';
import { precompressSite } from './precompress.ts';
import { sitePages, type PageCspOptions } from './site-pages.ts';
import { isSiteFolder } from '../../../http/site-files.ts';

/** Where a built site carries its copy of the public catalogue: served at /data/* by a CDN or nginx. */
export const SITE_DATA_DIR = 'data';
/** Catalogue files linked into the site at once. */
const LINK_CONCURRENCY = 64;
/** The Node server's address when the build is not told one (its default HOST and PORT). */
const DEFAULT_UPSTREAM = 'http://127.0.0.1:4321';

export interface HostFileOptions {
  /** Where the built site will be served from (the nginx root): the final folder, not the staging one. */
  siteDir: string;
  catalogueDir: string;
  publicUrl: string;
  /** Where the Node server listens, for the nginx block. */
  apiUpstream?: string | undefined;
  /** Path prefixes only Node answers besides /api/ (the simulated provider's). */
  nodePaths?: readonly string[] | undefined;
  /** API_BASE_URL: its origin joins every page's connect-src in `pageCspOptions`. */
  apiBaseUrl?: string | undefined;
  /**
   * Whether the site carries its own copy of the catalogue in `data/`: for a static host that has
   * only the site folder (`npm run build` for a CDN). The server's own rebuilds do not: it and the
   * nginx block serve /data/* from the catalogue folder, so a rebuild never grows with it (decision 041).
   */
  catalogueInSite?: boolean | undefined;
}

/** The nginx block beside the site folder (not inside it, so no CDN publishes it). */
export function nginxConfFile(siteDir: string): string {
  return `${siteDir}.nginx.conf`;
}

/**
 * Copies the public catalogue files into `<site>/data/`, hard-linked where it can: the export renames
 * files into place, so a link keeps this build's bytes when the catalogue changes. The export's
 * `.br`/`.gz` copies come along (linked too), so the build never compresses the catalogue again.
 */
async function copyCatalogue(catalogueDir: string, siteDir: string): Promise<number> {
  const files = (await filesUnder(catalogueDir, '')).filter((file) => PUBLIC_CATALOGUE_FILE.test(file));
  const target = path.join(siteDir, SITE_DATA_DIR);
  await Promise.all(
    [...new Set(files.map((file) => path.posix.dirname(file)))].map((dir) =>
      mkdir(path.join(target, dir), { recursive: true }),
    ),
  );
  const linkOne = async (file: string) => {
    const from = path.join(catalogueDir, file);
    const to = path.join(target, file);
    await linkOrCopy(from, to);
    // A copy the export did not write (a small file, or one that did not shrink) stays absent.
    for (const copy of Object.values(siblingsOf(from)))
      await linkOrCopy(copy, `${to}${copy.slice(from.length)}`).catch(() => {});
  };
  // Tens of thousands of links at 100,000 threads: several in flight keep libuv's threads busy.
  for (let start = 0; start < files.length; start += LINK_CONCURRENCY)
    await Promise.all(files.slice(start, start + LINK_CONCURRENCY).map(linkOne));
  return files.length;
}

/**
 * The nginx `listen` arguments for a public URL: its port, or 80 / 443 with TLS. A public URL that
 * is the Node server's own address (the default) cannot be nginx's too: then 80 / 443.
 */
export function listenFor(publicUrl: URL, upstream: string): string {
  const upstreamUrl = new URL(upstream);
  const own = publicUrl.port === upstreamUrl.port && publicUrl.hostname === upstreamUrl.hostname;
  const port = own ? '' : publicUrl.port;
  if (publicUrl.protocol === 'https:') return `${port || '443'} ssl http2`;
  return port || '80';
}

/**
 * Completes a freshly built site in `stagingDir` for static hosts: the public catalogue in `data/`
 * (with `catalogueInSite`),
 * `_headers` with each page's CSP, `.br`/`.gz` copies of every compressible file (reusing those of
 * `previousDir`, the site it replaces, for unchanged files), and the nginx block at
 * `<siteDir>.nginx.conf`. Returns the lines worth printing.
 */
export async function writeHostFiles(
  stagingDir: string,
  options: HostFileOptions,
  previousDir?: string,
  /** The pages every publish renders again (decision 043): their copies get a quicker brotli. */
  changing?: (file: string) => boolean,
): Promise<string[]> {
  const publicUrl = new URL(options.publicUrl);
  const secure = publicUrl.protocol === 'https:';
  // Built once, for _headers and nginx alike: API_BASE_URL's origin joins every page's connect-src.
  const apiOrigin = options.apiBaseUrl ? new URL(options.apiBaseUrl).origin : undefined;
  const pageCspOptions: PageCspOptions = { secure, apiOrigin };
  const copied = options.catalogueInSite ? await copyCatalogue(options.catalogueDir, stagingDir) : 0;
  // Before the compressed copies: it rewrites pages whose attribute values hold brackets.
  const pages = await sitePages(stagingDir, pageCspOptions);
  const headers = headersFile(pages, { secure });
  await writeFile(path.join(stagingDir, HEADERS_FILE), headers);
  const compressed = await precompressSite(stagingDir, previousDir, {
    skipFolder: (folder) => !isSiteFolder(folder),
    changing,
  });
  const nginxFile = nginxConfFile(options.siteDir);
  const upstream = options.apiUpstream ?? DEFAULT_UPSTREAM;
  await writeFile(
    nginxFile,
    nginxServerBlock({
      listen: listenFor(publicUrl, upstream),
      serverName: publicUrl.hostname,
      root: options.siteDir,
      catalogueDir: path.resolve(options.catalogueDir),
      apiUpstream: upstream,
      nodePaths: options.nodePaths,
      pages,
      secure,
      // Replace with your certificate's files, or terminate TLS in front and listen on plain http.
      tls: secure
        ? {
            certificate: `/etc/ssl/certs/${publicUrl.hostname}.pem`,
            key: `/etc/ssl/private/${publicUrl.hostname}.key`,
          }
        : undefined,
    }),
  );
  return [
    ...headersFileWarnings(headers),
    `Host files: ${options.catalogueInSite ? `${copied} catalogue files in ${SITE_DATA_DIR}/, ` : ''}${HEADERS_FILE} for ${pages.length} pages, ${compressed} files precompressed, ${nginxFile}.`,
  ];
}
