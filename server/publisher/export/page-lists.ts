import path from 'node:path';
import { CATALOGUE_PAGE_SIZE, pageCount, type CatalogueListKey } from '../../../contract/catalogue-pages.ts';
import { writeIfChanged } from './atomic-file.ts';

/** Files written at once: enough to keep the disk busy, few enough never to run out of descriptors. */
const WRITE_CONCURRENCY = 32;

/**
 * Writes files into a folder with a bounded number in flight, remembering whether any changed. A
 * caller awaits `write`, so at most WRITE_CONCURRENCY bodies wait in memory.
 */
export class WritePool {
  changed = false;
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown = null;
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Starts writing `name` (relative to the folder); resolves when there is room for the next one. */
  async write(name: string, body: string): Promise<void> {
    if (this.failure) throw this.failure;
    const done: Promise<void> = writeIfChanged(path.join(this.dir, name), body).then(
      (wrote) => {
        if (wrote) this.changed = true;
        this.inFlight.delete(done);
      },
      (error: unknown) => {
        this.failure ??= error;
        this.inFlight.delete(done);
      },
    );
    this.inFlight.add(done);
    if (this.inFlight.size >= WRITE_CONCURRENCY) await Promise.race(this.inFlight);
  }

  /** Waits for every write started; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
  }
}

/**
 * One list's page files (All, Text, Images or a topic) written as its cards stream by, holding at
 * most one page of cards (as JSON) at a time. `total` is known beforehand (the export's first pass),
 * so every page carries its place in the whole, byte for byte as `paginate` then JSON.stringify.
 */
export class PageList {
  readonly list: CatalogueListKey;
  readonly total: number;
  private cards: string[] = [];
  private page = 0;
  private seen = 0;
  private readonly pages: number;
  /** Everything before the page number, the same for each page of the list. */
  private readonly head: string;

  constructor(list: CatalogueListKey, total: number, version: string) {
    this.list = list;
    this.total = total;
    this.pages = pageCount(total);
    this.head = `{"version":${JSON.stringify(version)},"list":${JSON.stringify(list)},"page":`;
  }

  /** Adds the next card's JSON; writes the page it completes. */
  async add(cardJson: string, pool: WritePool): Promise<void> {
    this.seen += 1;
    // More cards than counted: the catalogue changed between the passes, which the export detects
    // by the version and answers by exporting again; until then nothing past the count is written.
    if (this.seen > this.total) return;
    this.cards.push(cardJson);
    if (this.cards.length === CATALOGUE_PAGE_SIZE || this.seen === this.total) await this.flush(pool);
  }

  /** Writes what is left: the empty first page of an empty list. Throws when the count was wrong. */
  async finish(pool: WritePool): Promise<void> {
    if (this.seen !== this.total)
      throw new Error(`The list ${this.list} had ${this.seen} cards, not the ${this.total} counted`);
    if (this.page === 0) await this.flush(pool);
  }

  private async flush(pool: WritePool): Promise<void> {
    this.page += 1;
    const body = `${this.head}${this.page},"pages":${this.pages},"total":${this.total},"cards":[${this.cards.join(',')}]}`;
    this.cards = [];
    await pool.write(`pages/${this.list}/${this.page}.json`, body);
  }
}
