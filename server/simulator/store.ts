import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SimulatedPublishing, type PublishedPost } from './publishing-store.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const SHORT_LIVED_MS = HOUR;
export const LONG_LIVED_MS = 60 * DAY;
/** Threads refreshes a long-lived token only once it is at least a day old. */
export const REFRESHABLE_AFTER_MS = DAY;

interface Grant {
  username: string;
  /** The permissions the person granted at authorize (threads-api.md section 1, scopes). */
  scopes: readonly string[];
  issuedAt: number;
  expiresAt: number;
}

/** Who a live token belongs to and what it may do. */
export interface TokenOwner {
  username: string;
  scopes: readonly string[];
  issuedAt: number;
  expiresAt: number;
}

interface PendingCode extends Grant {
  redirectUri: string;
}

/**
 * A stable, 17-digit Threads-style user id for a username (above 2^53, like real ids), so the same
 * name is the same account across restarts.
 */
export function simulatedUserId(username: string): string {
  const digest = createHash('sha256').update(username.toLowerCase()).digest();
  return `178414${(digest.readBigUInt64BE() % 10n ** 11n).toString().padStart(11, '0')}`;
}

/** The key the simulated provider signs tokens with, derived from the data folder's session secret. */
export function simulatedTokenKey(sessionSecret: string): Buffer {
  return createHmac('sha256', sessionSecret).update('simulated-threads-tokens').digest();
}

/** Codes, tokens and published posts of the simulated provider: a development stand-in for Threads. */
export class SimulatedThreadsStore {
  readonly #codes = new Map<string, PendingCode>();
  /** Refreshed tokens, refused from then on (in memory: a restart forgets them, a simulator's licence). */
  readonly #revoked = new Set<string>();
  readonly #signingKey: Buffer;
  /** When each user's counted keyword searches were made (threads-api.md section 3, the quota). */
  readonly #searches = new Map<string, number[]>();

  readonly now: () => number;
  /** When the provider started: seeded posts disappear relative to it. */
  readonly startedAt: number;
  /** Containers, published posts and the publishing limit, on the same clock. */
  readonly publishing: SimulatedPublishing;

  /**
   * `now` is the provider's clock; tests move it to expire codes and age tokens. Tokens are signed
   * with `signingKey`, so they stay valid across restarts and in `npm run curate`, which runs a
   * provider of its own: pass the same key (derived from the data folder's secrets) to both.
   */
  constructor(now: () => number = Date.now, signingKey: Buffer = randomBytes(32)) {
    this.now = now;
    this.startedAt = now();
    this.#signingKey = signingKey;
    this.publishing = new SimulatedPublishing(now);
  }

  /** The accounts that signed in (their tokens are stateless, so this is learned as they are used). */
  readonly #accounts = new Set<string>();

  /** The usernames of accounts seen signing in or calling: whose own posts exist here. */
  accounts(): ReadonlySet<string> {
    return this.#accounts;
  }

  /** A single-use authorization code for the granted scopes, valid for one hour. */
  issueCode(username: string, redirectUri: string, scopes: readonly string[]): string {
    this.#accounts.add(username.toLowerCase());
    const code = randomBytes(24).toString('base64url');
    const issuedAt = this.now();
    this.#codes.set(code, { username, scopes, redirectUri, issuedAt, expiresAt: issuedAt + HOUR });
    return code;
  }

  /** Redeems a code once; a second use, an expired code or another redirect URI gets null. */
  redeemCode(code: string, redirectUri: string): string | null {
    const pending = this.#codes.get(code);
    this.#codes.delete(code);
    if (!pending || pending.expiresAt <= this.now() || pending.redirectUri !== redirectUri) return null;
    return this.#issueToken(pending.username, pending.scopes, false);
  }

  #sign(payload: string): string {
    return createHmac('sha256', this.#signingKey).update(payload).digest('base64url');
  }

  #issueToken(username: string, scopes: readonly string[], longLived: boolean): string {
    const issuedAt = this.now();
    const expiresAt = issuedAt + (longLived ? LONG_LIVED_MS : SHORT_LIVED_MS);
    const payload = Buffer.from(
      JSON.stringify({
        u: username,
        s: scopes,
        i: issuedAt,
        e: expiresAt,
        n: randomBytes(9).toString('base64url'),
      }),
    ).toString('base64url');
    return `${longLived ? 'SIMLL' : 'SIMSL'}${payload}.${this.#sign(payload)}`;
  }

  /** The grant a token carries, when its signature holds and it was not refreshed away. */
  #grant(token: string): (Grant & { longLived: boolean }) | null {
    const match = /^(SIMLL|SIMSL)([\w-]+)\.([\w-]+)$/.exec(token);
    if (!match || this.#revoked.has(token)) return null;
    const [, kind, payload = '', signature = ''] = match;
    const expected = Buffer.from(this.#sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const { u, s, i, e } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      u: string;
      s?: string[];
      i: number;
      e: number;
    };
    this.#accounts.add(u.toLowerCase());
    // A token signed before scopes were recorded carries threads_basic only.
    return {
      username: u,
      scopes: s ?? ['threads_basic'],
      issuedAt: i,
      expiresAt: e,
      longLived: kind === 'SIMLL',
    };
  }

  /** The username behind a live token, or null. */
  owner(token: string): string | null {
    return this.grantOf(token)?.username ?? null;
  }

  /** The owner and granted scopes of a live token, or null. */
  grantOf(token: string): TokenOwner | null {
    const grant = this.#grant(token);
    if (!grant || grant.expiresAt <= this.now()) return null;
    return {
      username: grant.username,
      scopes: grant.scopes,
      issuedAt: grant.issuedAt,
      expiresAt: grant.expiresAt,
    };
  }

  /** A long-lived token for a live short-lived one, with the same scopes. */
  exchange(shortLived: string): string | null {
    const grant = this.#grant(shortLived);
    if (!grant || grant.longLived || grant.expiresAt <= this.now()) return null;
    return this.#issueToken(grant.username, grant.scopes, true);
  }

  /** A post published through the simulated publishing endpoints, by its id. */
  published(id: string): PublishedPost | null {
    return this.publishing.published(id);
  }

  /** A published post by its shortcode (oEmbed finds posts by permalink), or null. */
  publishedByShortcode(shortcode: string): PublishedPost | null {
    return this.publishing.publishedByShortcode(shortcode);
  }

  /** Signs a media address like Meta's CDN signs its URLs (`_nc_sig`): the file and its expiry. */
  signMedia(file: string, expiresAtSeconds: number): string {
    return this.#sign(`media:${file}:${expiresAtSeconds}`).slice(0, 22);
  }

  /** Keyword searches `username` made in the rolling 24 hours before now (section 3). */
  searchesInWindow(username: string): number {
    const since = this.now() - DAY;
    const kept = (this.#searches.get(username) ?? []).filter((at) => at > since);
    this.#searches.set(username, kept);
    return kept.length;
  }

  /** Counts one search against the user's quota (only searches that returned something count). */
  countSearch(username: string): void {
    const made = this.#searches.get(username) ?? [];
    made.push(this.now());
    this.#searches.set(username, made);
  }

  /** A new long-lived token for one at least a day old and not expired; the old one stops working. */
  refresh(longLived: string): string | 'too_early' | null {
    const grant = this.#grant(longLived);
    if (!grant || !grant.longLived || grant.expiresAt <= this.now()) return null;
    if (this.now() - grant.issuedAt < REFRESHABLE_AFTER_MS) return 'too_early';
    this.#revoked.add(longLived);
    return this.#issueToken(grant.username, grant.scopes, true);
  }
}
