import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimitCountersRepository } from '../repositories/rate-limit-counters.ts';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * What @fastify/rate-limit 10 passes to `child`: the route's merged limit settings and, as
 * `routeInfo`, the route (its types name the route's options instead).
 */
interface LimitSettings {
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

export interface SharedStoreOptions {
  counters: RateLimitCountersRepository;
  log: FastifyBaseLogger;
  /** How often, at most, this instance deletes ended windows (after a hit, without waiting for it). */
  sweepEveryMs?: number;
}

const TEN_MINUTES = 10 * 60_000;

/**
 * A @fastify/rate-limit store whose counters live in PostgreSQL, so that every instance counts the
 * same hits (decision 066). One store per limited route (`child`): a counter's key is the route
 * and the limit's key (the user id, or the client address).
 *
 * When the database does not answer, the hit is not counted: the error goes to the plugin, which
 * lets the request through (`skipOnError`), and a warning is logged. The limited routes need the
 * database for their own work anyway (the mail links' pages only show a button that does): refusing
 * them with a 500 would protect nothing.
 */
export function sharedRateLimitStore({
  counters,
  log,
  sweepEveryMs = TEN_MINUTES,
}: SharedStoreOptions): FastifyRateLimitStoreCtor {
  let nextSweepAt = 0;
  const sweepNow = () => {
    if (Date.now() < nextSweepAt) return;
    nextSweepAt = Date.now() + sweepEveryMs;
    counters.deleteEnded().catch((error: unknown) => {
      log.warn({ err: error }, 'rate limits: could not delete ended windows (tried again later)');
    });
  };

  class SharedStore implements FastifyRateLimitStore {
    readonly #route: string;

    // The plugin constructs the root store with its settings; only `child` stores count.
    constructor(_settings: object, route = '') {
      this.#route = route;
    }

    /** @fastify/rate-limit 10 passes the route's window (ms) and max after the callback; its types omit them. */
    incr(key: string, callback: IncrCallback, timeWindow?: number): void {
      if (timeWindow === undefined) {
        this.#failed(new Error('@fastify/rate-limit passed no time window'), callback);
        return;
      }
      counters.hit(`${this.#route} ${key}`, timeWindow).then(
        ({ hits, resetInMs }) => {
          callback(null, { current: hits, ttl: resetInMs });
          sweepNow();
        },
        (error: unknown) => this.#failed(error, callback),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const settings = routeOptions as LimitSettings;
      // Counted as fixed windows only: refuse at startup what this store would silently ignore.
      if (settings.continueExceeding || settings.exponentialBackoff) {
        throw new Error(
          'the shared rate-limit store supports neither continueExceeding nor exponentialBackoff',
        );
      }
      const { method = '', url = '' } = settings.routeInfo ?? {};
      return new SharedStore(settings, `${String(method)} ${url}`);
    }

    #failed(error: unknown, callback: IncrCallback): void {
      log.warn({ err: error, route: this.#route }, 'rate limit not counted: the request goes through');
      callback(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return SharedStore;
}
