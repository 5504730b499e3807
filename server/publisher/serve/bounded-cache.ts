/**
 * A least-recently-used map bounded both in entries and in the bytes its values hold: the served
 * catalogue keeps its hot files' headers and small bodies here, whatever the catalogue's size.
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor({ maxEntries, maxBytes }: { maxEntries: number; maxBytes: number }) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /** The value under `key`, marked as the most recently used. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // A Map iterates in insertion order: re-inserting makes this the newest.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` (holding `bytes`), dropping the least recently used values over either bound. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    // A value larger than the whole budget is not kept at all (it would empty the cache for nothing).
    if (bytes > this.#maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** How many values and bytes are held now. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}
