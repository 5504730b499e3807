import type { ModerationLogPage } from '../../../contract/moderation-log.ts';

/** Bounded, so a walk through made-up (valid) cursors cannot grow it without limit. */
const MAX_PAGES = 200;
/** Another instance on the same PostgreSQL cannot clear our copy: it goes stale for at most this long. */
const TTL_MS = 30_000;

/**
 * Pages of `GET /api/moderation` by cursor ('' for the first). The log is public and may be read a lot,
 * while PGlite runs one query at a time (DESIGN section 8), so pages are served from here; every
 * decision clears it. A page read while a decision committed is not stored (the generation moved), so a
 * read racing a decision cannot keep the old page for the whole TTL.
 */
export class ModerationLogCache {
  readonly #pages = new Map<string, { page: ModerationLogPage; expires: number }>();
  readonly #now: () => number;
  #generation = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The cached page, or undefined when it must be read. */
  get(cursor: string): ModerationLogPage | undefined {
    const entry = this.#pages.get(cursor);
    if (!entry) return undefined;
    if (entry.expires > this.#now()) return entry.page;
    this.#pages.delete(cursor);
    return undefined;
  }

  /** The current generation: pass it back to `set` with the page read after asking. */
  generation(): number {
    return this.#generation;
  }

  /** Keeps a page unless the log changed since `generation` was taken. */
  set(cursor: string, page: ModerationLogPage, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#pages.size >= MAX_PAGES) this.#pages.clear();
    this.#pages.set(cursor, { page, expires: this.#now() + TTL_MS });
  }

  clear(): void {
    this.#generation++;
    this.#pages.clear();
  }
}
