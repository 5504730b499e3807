import { PUBLIC_CATALOGUE_FILE } from '../export/catalogue-files.ts';
import {
  catalogueCacheControl,
  isSiteFile,
  isSiteFolder,
  siteCacheControl,
  THREAD_TEMPLATE_FILE,
} from '../../http/site-files.ts';
import type { BorrowedCatalogue } from './borrowed-catalogue.ts';
import { DiskCatalogue, type CatalogueAnswer, type CatalogueRequest } from './disk-catalogue.ts';
import { StaticStore, type StaticFile } from './static-store.ts';

export interface ServedSiteOptions {
  /** The built site (Astro's dist); null serves the catalogue only (the API behind `npm run dev`). */
  siteDir: string | null;
  /** The public catalogue, served at /data/*. */
  catalogueDir: string;
  secure: boolean;
  /** API_BASE_URL's origin, allowed in the pages' `connect-src`; absent: the pages call their own origin. */
  apiOrigin?: string | undefined;
  /**
   * The first site is being built in the background (a first start): a folder without a build is
   * served as `building` until `reloadSite` finds one, instead of refusing to start.
   */
  firstBuild?: boolean | undefined;
  /** How long after a switch the version before still answers its other catalogue files; see activate. */
  previousGraceMs?: number | undefined;
}

/**
 * After a switch, a page loaded just before it still reads the old version's catalogue files, and a
 * page file the new version no longer has (a list that got shorter) would be a 404 to it. Bounded,
 * because a file removed on purpose (a deleted profile, a topic gone) must not stay served.
 */
export const PREVIOUS_GRACE_MS = 15_000;

interface Site {
  store: StaticStore;
  notFoundPage: StaticFile;
  /** The thread pages' template (decision 046); absent in a site built before it existed. */
  threadTemplate: StaticFile | undefined;
}

/** A version loaded by prepare(), to be served by activate(). */
export interface PreparedSite {
  readonly options: ServedSiteOptions;
  readonly site: Site | null;
  readonly catalogue: DiskCatalogue;
}

/** What answers /data/*: the served catalogue, with the neighbouring versions' search shards. */
export interface CatalogueReader {
  /** Whether a decoded path may name a public catalogue file (it may still be missing). */
  accepts(pathname: string): boolean;
  answer(pathname: string, request: CatalogueRequest): Promise<CatalogueAnswer | undefined>;
  /** The served catalogue's reads and cache, for tests and the bench. */
  readonly stats: DiskCatalogue['stats'];
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
      skipFolder: (folder) => !isSiteFolder(folder),
      precompressed: true,
      apiOrigin: options.apiOrigin,
    },
    previous?.store,
  );
  const notFoundPage = store.get('/404.html');
  if (!notFoundPage)
    throw new Error(`The built site in ${options.siteDir} has no 404.html; run npm run build.`);
  return { store, notFoundPage, threadTemplate: store.get(`/${THREAD_TEMPLATE_FILE}`) };
}

/** How the catalogue's files are answered, wherever they lie. */
export function catalogueOptions(secure: boolean) {
  return {
    cacheControl: catalogueCacheControl,
    secure,
    include: (file: string) => PUBLIC_CATALOGUE_FILE.test(file),
  };
}

function diskCatalogue(options: ServedSiteOptions): DiskCatalogue {
  return new DiskCatalogue(options.catalogueDir, catalogueOptions(options.secure));
}

/** Search shards are named by their content: any version's shard is the same file wherever it is found. */
const isSearchShard = (pathname: string) => pathname.startsWith('/data/search/');

/**
 * What the server answers with: the built site, held in memory and swapped whole (a request sees
 * either the old site or the new one, never a mix), and the public catalogue, answered from its
 * folder on disk (decision 034), so memory and start-up do not grow with the catalogue.
 */
export class ServedSite {
  #site: Site | null;
  #catalogue: DiskCatalogue;
  /**
   * The version before the current one: a page loaded just before a swap still asks for its hashed
   * /_astro/ files and search shards, which the new version may name differently.
   */
  #previousSite: StaticStore | null = null;
  #previousCatalogue: DiskCatalogue | null = null;
  /** Until when the version before answers every catalogue file, not only its search shards. */
  #previousUntil = 0;
  /** A prepared version not served yet (see prepare). */
  #upcoming: PreparedSite | null = null;
  #options: ServedSiteOptions;
  /** Files of a newer version this instance has not switched to yet (several instances only). */
  #borrowed: BorrowedCatalogue | null = null;
  #building = false;
  /** The catalogue at /data/*, read from disk on request. */
  readonly catalogue: CatalogueReader;

  private constructor(options: ServedSiteOptions, site: Site | null) {
    this.#options = options;
    this.#site = site;
    this.#catalogue = diskCatalogue(options);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the reader's getter needs the site, not itself
    const served = this;
    this.catalogue = {
      accepts: (pathname) => served.#catalogue.accepts(pathname),
      answer: async (pathname, request) => {
        const answer = await served.#catalogue.answer(pathname, request);
        if (answer) return answer;
        const shard = isSearchShard(pathname);
        const previous =
          shard || Date.now() < served.#previousUntil
            ? await served.#previousCatalogue?.answer(pathname, request)
            : undefined;
        const neighbour =
          previous ?? (shard ? await served.#upcoming?.catalogue.answer(pathname, request) : undefined);
        return neighbour ?? served.#borrowed?.answer(pathname, request);
      },
      get stats() {
        return served.#catalogue.stats;
      },
    };
  }

  /** Reads and precompresses the built site; the catalogue is not read until it is asked for. */
  static async load(options: ServedSiteOptions): Promise<ServedSite> {
    if (options.firstBuild) {
      const served = new ServedSite(options, null);
      served.#building = true;
      return served;
    }
    return new ServedSite(options, await loadSite(options));
  }

  /**
   * Answers catalogue files the served version lacks from `borrowed` (the newest published
   * version's), so a page another instance served a moment earlier never meets a 404 here.
   */
  borrowMissing(borrowed: BorrowedCatalogue): void {
    this.#borrowed = borrowed;
  }

  /** Whether the first site is still being built: pages answer 503 until it is served. */
  get building(): boolean {
    return this.#building;
  }

  /** Swaps in a rebuilt site (unchanged files are reused) and drops what was cached of the catalogue. */
  async reloadSite(): Promise<void> {
    const next = await loadSite(this.#options, this.#site);
    this.#previousSite = this.#site?.store ?? null;
    this.#site = next;
    this.#building = false;
    this.#catalogue.clear();
  }

  /**
   * After an export: drops the catalogue's cached headers and bodies. Not needed for correctness
   * (every request checks the file's version on disk) but it frees what the old version held.
   */
  reloadCatalogue(): Promise<void> {
    this.#catalogue.clear();
    return Promise.resolve();
  }

  /**
   * Loads another pair of folders (an assembled published version, decision 036) to switch to at a
   * set moment; until then its content-hashed files (search shards, /_astro/ assets) are answered
   * already, so an instance that switched a moment earlier never sends a visitor for a file this
   * one lacks.
   */
  async prepare(folders: { siteDir: string; catalogueDir: string }): Promise<PreparedSite> {
    const options = { ...this.#options, ...folders };
    const prepared = {
      options,
      site: await loadSite(options, this.#site),
      catalogue: diskCatalogue(options),
    };
    this.#upcoming = prepared;
    return prepared;
  }

  /**
   * Serves a prepared version from now on, whole; the one before stays for its hashed files, and
   * for a short grace (PREVIOUS_GRACE_MS) for the other catalogue files the new one lacks.
   */
  activate(prepared: PreparedSite): void {
    this.#previousSite = this.#site?.store ?? null;
    this.#previousCatalogue = this.#catalogue;
    this.#previousUntil = Date.now() + (this.#options.previousGraceMs ?? PREVIOUS_GRACE_MS);
    this.#options = prepared.options;
    this.#site = prepared.site;
    this.#catalogue = prepared.catalogue;
    if (this.#upcoming === prepared) this.#upcoming = null;
    this.#borrowed?.forget();
  }

  /** The page answered, with status 404, for every unknown path; none without a site. */
  get notFoundPage(): StaticFile | undefined {
    return this.#site?.notFoundPage;
  }

  /** The template every /thread/{id} is filled from (decision 046); none without a site. */
  get threadTemplate(): StaticFile | undefined {
    return this.#site?.threadTemplate;
  }

  /**
   * The built file a decoded path names: a page or asset of the site (or, for hashed /_astro/
   * files, of the version before or the one prepared). Catalogue data (/data/*) is never one:
   * `catalogue` answers it. Callers have turned /api away.
   */
  find(pathname: string): StaticFile | undefined {
    if (pathname.startsWith('/data/')) return undefined;
    return (
      this.#site?.store.resolve(pathname) ??
      (pathname.startsWith('/_astro/')
        ? (this.#previousSite?.get(pathname) ?? this.#upcoming?.site?.store.get(pathname))
        : undefined)
    );
  }
}
