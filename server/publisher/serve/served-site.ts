import { PUBLIC_CATALOGUE_FILE } from '../export/catalogue-files.ts';
import { catalogueCacheControl, isSiteFile, siteCacheControl } from '../../http/site-files.ts';
import { DiskCatalogue } from './disk-catalogue.ts';
import { StaticStore, type StaticFile } from './static-store.ts';

export interface ServedSiteOptions {
  /** The built site (Astro's dist); null serves the catalogue only (the API behind `npm run dev`). */
  siteDir: string | null;
  /** The public catalogue, served at /data/*. */
  catalogueDir: string;
  secure: boolean;
  /** API_BASE_URL's origin, allowed in the pages' `connect-src`; absent: the pages call their own origin. */
  apiOrigin?: string | undefined;
}

interface Site {
  store: StaticStore;
  notFoundPage: StaticFile;
}

async function loadSite(options: ServedSiteOptions, previous?: Site | null): Promise<Site | null> {
  if (options.siteDir === null) return null;
  const store = await StaticStore.load(
    options.siteDir,
    '',
    {
      cacheControl: siteCacheControl,
      secure: options.secure,
      include: isSiteFile,
      precompressed: true,
      apiOrigin: options.apiOrigin,
    },
    previous?.store,
  );
  const notFoundPage = store.get('/404.html');
  if (!notFoundPage)
    throw new Error(`The built site in ${options.siteDir} has no 404.html; run npm run build.`);
  return { store, notFoundPage };
}

/**
 * What the server answers with: the built site, held in memory and swapped whole (a request sees
 * either the old site or the new one, never a mix), and the public catalogue, answered from its
 * folder on disk (decision 034), so memory and start-up do not grow with the catalogue.
 */
export class ServedSite {
  #site: Site | null;
  /**
   * The build before the current one: a page loaded just before a swap still asks for its hashed
   * /_astro/ files, which the new build may name differently.
   */
  #previousSite: StaticStore | null = null;
  /** The catalogue at /data/*, read from disk on request. */
  readonly catalogue: DiskCatalogue;
  readonly #options: ServedSiteOptions;

  private constructor(options: ServedSiteOptions, site: Site | null) {
    this.#options = options;
    this.#site = site;
    this.catalogue = new DiskCatalogue(options.catalogueDir, {
      cacheControl: catalogueCacheControl,
      secure: options.secure,
      include: (file) => PUBLIC_CATALOGUE_FILE.test(file),
    });
  }

  /** Reads and precompresses the built site; the catalogue is not read until it is asked for. */
  static async load(options: ServedSiteOptions): Promise<ServedSite> {
    return new ServedSite(options, await loadSite(options));
  }

  /** Swaps in a rebuilt site (unchanged files are reused) and drops what was cached of the catalogue. */
  async reloadSite(): Promise<void> {
    const next = await loadSite(this.#options, this.#site);
    this.#previousSite = this.#site?.store ?? null;
    this.#site = next;
    this.catalogue.clear();
  }

  /**
   * After an export: drops the catalogue's cached headers and bodies. Not needed for correctness
   * (every request checks the file's version on disk) but it frees what the old version held.
   */
  reloadCatalogue(): Promise<void> {
    this.catalogue.clear();
    return Promise.resolve();
  }

  /** The page answered, with status 404, for every unknown path; none without a site. */
  get notFoundPage(): StaticFile | undefined {
    return this.#site?.notFoundPage;
  }

  /**
   * The built file a decoded path names: a page or asset of the site (or of the build before).
   * Catalogue data (/data/*) is never one: `catalogue` answers it. Callers have turned /api away.
   */
  find(pathname: string): StaticFile | undefined {
    if (pathname.startsWith('/data/')) return undefined;
    return (
      this.#site?.store.resolve(pathname) ??
      (pathname.startsWith('/_astro/') ? this.#previousSite?.get(pathname) : undefined)
    );
  }
}
