import { PUBLIC_CATALOGUE_FILE } from '../export/catalogue-files.ts';
import { catalogueCacheControl, isSiteFile, siteCacheControl } from '../../http/site-files.ts';
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

/** A version loaded by prepare(), to be served by activate(). */
export interface PreparedSite {
  readonly options: ServedSiteOptions;
  readonly stores: Stores;
}

interface Stores {
  site: StaticStore | null;
  data: StaticStore;
  notFoundPage: StaticFile | undefined;
}

function loadCatalogue(options: ServedSiteOptions, previous?: StaticStore) {
  return StaticStore.load(
    options.catalogueDir,
    '/data',
    {
      cacheControl: catalogueCacheControl,
      secure: options.secure,
      include: (file) => PUBLIC_CATALOGUE_FILE.test(file),
      brotliQuality: 5,
    },
    previous,
  );
}

async function loadStores(options: ServedSiteOptions, previous?: Stores): Promise<Stores> {
  const [site, data] = await Promise.all([
    options.siteDir === null
      ? null
      : StaticStore.load(
          options.siteDir,
          '',
          {
            cacheControl: siteCacheControl,
            secure: options.secure,
            include: isSiteFile,
            precompressed: true,
            apiOrigin: options.apiOrigin,
          },
          previous?.site,
        ),
    loadCatalogue(options, previous?.data),
  ]);
  const notFoundPage = site?.get('/404.html');
  if (site && !notFoundPage)
    throw new Error(`The built site in ${options.siteDir} has no 404.html; run npm run build.`);
  return { site, data, notFoundPage };
}

/**
 * What the server answers with: the built site and the public catalogue, held in memory and
 * swapped whole, so a request sees either the old site or the new one, never a mix.
 */
export class ServedSite {
  #stores: Stores;
  /**
   * The build before the current one: a page loaded just before a swap still asks for its hashed
   * /_astro/ files, which the new build may name differently.
   */
  #previousSite: StaticStore | null = null;
  /**
   * The catalogue before the current one: a search index read just before a switch names shards
   * (content-hashed, never reused) that the new catalogue may not have.
   */
  #previousData: StaticStore | null = null;
  /** A prepared version not served yet (see prepare). */
  #upcoming: Stores | null = null;
  #options: ServedSiteOptions;

  private constructor(options: ServedSiteOptions, stores: Stores) {
    this.#options = options;
    this.#stores = stores;
  }

  /** Reads and precompresses both folders. */
  static async load(options: ServedSiteOptions): Promise<ServedSite> {
    return new ServedSite(options, await loadStores(options));
  }

  /** Swaps in a rebuilt site and the catalogue beside it (unchanged files are reused). */
  async reloadSite(): Promise<void> {
    const next = await loadStores(this.#options, this.#stores);
    this.#previousSite = this.#stores.site;
    this.#stores = next;
  }

  /**
   * Loads another pair of folders (an assembled published version) to switch to at a set moment;
   * until then its content-hashed files (search shards, /_astro/ assets) are answered already, so an
   * instance that switched a moment earlier never sends a visitor for a file this one lacks.
   */
  async prepare(folders: { siteDir: string; catalogueDir: string }): Promise<PreparedSite> {
    const options = { ...this.#options, ...folders };
    const stores = await loadStores(options, this.#stores);
    this.#upcoming = stores;
    return { options, stores };
  }

  /** Serves a prepared version from now on, whole; the one before stays for its hashed files. */
  activate(prepared: PreparedSite): void {
    this.#previousSite = this.#stores.site;
    this.#previousData = this.#stores.data;
    this.#options = prepared.options;
    this.#stores = prepared.stores;
    if (this.#upcoming === prepared.stores) this.#upcoming = null;
  }

  /** Swaps in the catalogue folder alone (a new export needs no new site). */
  async reloadCatalogue(): Promise<void> {
    this.#stores = { ...this.#stores, data: await loadCatalogue(this.#options, this.#stores.data) };
  }

  /** The page answered, with status 404, for every unknown path; none without a site. */
  get notFoundPage(): StaticFile | undefined {
    return this.#stores.notFoundPage;
  }

  /**
   * The file a decoded path names: a page or asset of the site (or of the build before), or catalogue
   * data. Callers have already turned /api paths away.
   */
  find(pathname: string): StaticFile | undefined {
    const { site, data } = this.#stores;
    if (pathname.startsWith('/data/'))
      return (
        data.get(pathname) ??
        (pathname.startsWith('/data/search/')
          ? (this.#previousData?.get(pathname) ?? this.#upcoming?.data.get(pathname))
          : undefined)
      );
    return (
      site?.resolve(pathname) ??
      (pathname.startsWith('/_astro/')
        ? (this.#previousSite?.get(pathname) ?? this.#upcoming?.site?.get(pathname))
        : undefined)
    );
  }
}
