import type { PublicProfile } from '../../../contract/profile-rules.ts';

/** Bounded, so a scan of made-up names cannot grow it without limit. */
const MAX_ENTRIES = 5_000;
/** Another instance on the same PostgreSQL cannot clear our copy: it goes stale for at most this long. */
const TTL_MS = 30_000;

/**
 * The answers of `GET /api/user/profile/{username}`, found or not, by lower-cased name. PGlite runs one
 * query at a time, so hot public reads are served from here (DESIGN section 8); every profile write
 * clears it.
 */
export class PublicProfileCache {
  readonly #entries = new Map<string, { profile: PublicProfile | null; expires: number }>();
  readonly #now: () => number;
  /** Moves on every clear: a read that began before a write must not store what it read. */
  #generation = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The cached answer (null: known not to exist), or undefined when it must be looked up. */
  get(name: string): PublicProfile | null | undefined {
    const entry = this.#entries.get(name.toLowerCase());
    if (!entry) return undefined;
    if (entry.expires > this.#now()) return entry.profile;
    this.#entries.delete(name.toLowerCase());
    return undefined;
  }

  /** A token to pass to `set`: taken before the lookup, so a write during it wins. */
  generation(): number {
    return this.#generation;
  }

  /** Stores an answer, unless the cache was cleared since `generation` was taken (it may be stale). */
  set(name: string, profile: PublicProfile | null, generation = this.#generation): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(name.toLowerCase(), { profile, expires: this.#now() + TTL_MS });
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}
