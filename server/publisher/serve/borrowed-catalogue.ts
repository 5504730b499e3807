import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DiskCatalogue,
  type CatalogueAnswer,
  type CatalogueRequest,
  type DiskCatalogueOptions,
} from './disk-catalogue.ts';

/** The bytes the newest published version holds at `key` (`data/...`), or null when it has none. */
export type FetchNewest = (key: string) => Promise<Buffer | null>;

/** A path the newest version lacks too is not asked for again this soon (a 404 costs no query then). */
const MISS_MS = 5_000;
/** Misses remembered at most: a crawler's random names cannot grow memory. */
const MISSES_MAX = 1_000;

/**
 * Catalogue files this instance borrows from the newest published version because the version it
 * serves lacks them (decision 045): an instance that switches a moment late is still asked, by pages
 * that another instance served, for the new version's search shards and pages. Each is fetched once,
 * written to a folder of its own and answered like any catalogue file; the folder is dropped at the
 * next switch, when the version served has the files itself.
 */
export class BorrowedCatalogue {
  readonly #root: string;
  readonly #options: DiskCatalogueOptions;
  readonly #fetchNewest: FetchNewest;
  #folder: string;
  #catalogue: DiskCatalogue;
  readonly #misses = new Map<string, number>();
  /** Borrowings in progress, by path: a crowd asking for one file fetches it once. */
  readonly #borrowing = new Map<string, Promise<boolean>>();

  constructor(root: string, options: DiskCatalogueOptions, fetchNewest: FetchNewest) {
    this.#root = root;
    this.#options = options;
    this.#fetchNewest = fetchNewest;
    this.#folder = this.#newFolder();
    this.#catalogue = new DiskCatalogue(this.#folder, options);
  }

  /** Removes what an earlier process borrowed: none of it is known to be current. */
  async start(): Promise<void> {
    await rm(this.#root, { recursive: true, force: true });
  }

  /** The newest version's file at `pathname` when the served one lacks it; undefined: a 404. */
  async answer(pathname: string, request: CatalogueRequest): Promise<CatalogueAnswer | undefined> {
    const catalogue = this.#catalogue;
    if (!catalogue.accepts(pathname)) return undefined;
    const held = await catalogue.answer(pathname, request);
    if (held) return held;
    const missed = this.#misses.get(pathname);
    if (missed !== undefined && Date.now() - missed < MISS_MS) return undefined;
    let borrowing = this.#borrowing.get(pathname);
    if (!borrowing) {
      // The database unreachable or the disk full: the file is missing here, a 404 as before.
      borrowing = this.#borrow(pathname, this.#folder)
        .catch(() => false)
        .finally(() => this.#borrowing.delete(pathname));
      this.#borrowing.set(pathname, borrowing);
    }
    if (await borrowing) return catalogue.answer(pathname, request);
    if (this.#misses.size >= MISSES_MAX) this.#misses.clear();
    this.#misses.set(pathname, Date.now());
    return undefined;
  }

  /** After a switch: what was borrowed belongs to the version now served, or to an older one. */
  forget(): void {
    const old = this.#folder;
    this.#folder = this.#newFolder();
    this.#catalogue = new DiskCatalogue(this.#folder, this.#options);
    this.#misses.clear();
    // A stream still reading a borrowed file keeps its bytes: removing only unlinks the names.
    void rm(old, { recursive: true, force: true });
  }

  #newFolder(): string {
    return path.join(this.#root, `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`);
  }

  async #borrow(pathname: string, folder: string): Promise<boolean> {
    const relative = pathname.slice('/data/'.length);
    const body = await this.#fetchNewest(`data/${relative}`);
    if (body === null) return false;
    const file = path.join(folder, ...relative.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    // Renamed into place whole: a second request never reads half a file.
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, body);
    await rename(temporary, file);
    return true;
  }
}
