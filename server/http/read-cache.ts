/**
 * Answers of a hot public read, by key, for at most `ttlMs`, bounded to `maxEntries` (a scan of
 * made-up keys cannot grow it without limit). PGlite runs one query at a time, so hot public reads are
 * served from memory (DESIGN section 8); every write that changes them clears the cache, on every
 * instance of one PostgreSQL (content changes travel by LISTEN/NOTIFY, decision 030). While an
 * instance does not hear the others, its copy goes stale for at most the TTL.
 */
export class ReadCache<T> {
  readonly #entries = new Map<string, { value: T; expires: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #key: (key: string) => string;
  /** Moves on every clear: a read that began before a write must not store what it read. */
  #generation = 0;

  constructor(options: {
    maxEntries: number;
    ttlMs?: number;
    now?: () => number;
    /** Keys that name the same answer (e.g. names compared without regard to case). */
    normalize?: (key: string) => string;
  }) {
    this.#maxEntries = options.maxEntries;
    this.#ttlMs = options.ttlMs ?? 30_000;
    this.#now = options.now ?? Date.now;
    this.#key = options.normalize ?? ((key) => key);
  }

  /** The cached answer, or undefined when it must be read. */
  get(key: string): T | undefined {
    const k = this.#key(key);
    const entry = this.#entries.get(k);
    if (!entry) return undefined;
    if (entry.expires > this.#now()) return entry.value;
    this.#entries.delete(k);
    return undefined;
  }

  /** A token to pass to `set`: taken before the read, so a write during it wins. */
  generation(): number {
    return this.#generation;
  }

  /** Stores an answer, unless the cache was cleared since `generation` was taken (it may be stale). */
  set(key: string, value: T, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
    this.#entries.set(this.#key(key), { value, expires: this.#now() + this.#ttlMs });
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}
