import { createHash, randomBytes } from 'node:crypto';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const SHORT_LIVED_MS = HOUR;
export const LONG_LIVED_MS = 60 * DAY;
/** Threads refreshes a long-lived token only once it is at least a day old. */
export const REFRESHABLE_AFTER_MS = DAY;

interface Grant {
  username: string;
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

/** A post published through the simulated publishing endpoints. */
export interface PublishedPost {
  id: string;
  username: string;
  text: string;
  quotePostId: string | null;
  shortcode: string;
  timestamp: string;
}

/** Codes, tokens and published posts of the simulated provider, in memory: a development stand-in. */
export class SimulatedThreadsStore {
  readonly #codes = new Map<string, PendingCode>();
  readonly #tokens = new Map<string, Grant & { longLived: boolean }>();
  readonly #containers = new Map<string, { username: string; text: string; quotePostId: string | null }>();
  readonly #published = new Map<string, PublishedPost>();
  #nextMediaId = 18_100_000_000_000_000n;

  readonly now: () => number;
  /** When the provider started: seeded posts disappear relative to it. */
  readonly startedAt: number;

  /** `now` is the provider's clock; tests move it to expire codes and age tokens. */
  constructor(now: () => number = Date.now) {
    this.now = now;
    this.startedAt = now();
  }

  /** A single-use authorization code, valid for one hour. */
  issueCode(username: string, redirectUri: string): string {
    const code = randomBytes(24).toString('base64url');
    const issuedAt = this.now();
    this.#codes.set(code, { username, redirectUri, issuedAt, expiresAt: issuedAt + HOUR });
    return code;
  }

  /** Redeems a code once; a second use, an expired code or another redirect URI gets null. */
  redeemCode(code: string, redirectUri: string): string | null {
    const pending = this.#codes.get(code);
    this.#codes.delete(code);
    if (!pending || pending.expiresAt <= this.now() || pending.redirectUri !== redirectUri) return null;
    return this.#issueToken(pending.username, false);
  }

  #issueToken(username: string, longLived: boolean): string {
    const token = `${longLived ? 'SIMLL' : 'SIMSL'}${randomBytes(24).toString('base64url')}`;
    const issuedAt = this.now();
    this.#tokens.set(token, {
      username,
      issuedAt,
      expiresAt: issuedAt + (longLived ? LONG_LIVED_MS : SHORT_LIVED_MS),
      longLived,
    });
    return token;
  }

  /** The username behind a live token, or null. */
  owner(token: string): string | null {
    const grant = this.#tokens.get(token);
    return grant && grant.expiresAt > this.now() ? grant.username : null;
  }

  exchange(shortLived: string): string | null {
    const grant = this.#tokens.get(shortLived);
    if (!grant || grant.longLived || grant.expiresAt <= this.now()) return null;
    return this.#issueToken(grant.username, true);
  }

  /** A media container waiting to be published (Threads' first publishing step); returns its id. */
  createContainer(username: string, text: string, quotePostId: string | null): string {
    const id = String(this.#nextMediaId++);
    this.#containers.set(id, { username, text, quotePostId });
    return id;
  }

  /** Publishes the user's container once; another user's or an unknown container gets null. */
  publishContainer(username: string, creationId: string): PublishedPost | null {
    const container = this.#containers.get(creationId);
    if (!container || container.username !== username) return null;
    this.#containers.delete(creationId);
    const post: PublishedPost = {
      ...container,
      id: String(this.#nextMediaId++),
      shortcode: `SIM${randomBytes(6).toString('base64url')}`,
      timestamp: new Date(this.now()).toISOString(),
    };
    this.#published.set(post.id, post);
    return post;
  }

  published(id: string): PublishedPost | null {
    return this.#published.get(id) ?? null;
  }

  /** A new long-lived token for one at least a day old and not expired; the old one stops working. */
  refresh(longLived: string): string | 'too_early' | null {
    const grant = this.#tokens.get(longLived);
    if (!grant || !grant.longLived || grant.expiresAt <= this.now()) return null;
    if (this.now() - grant.issuedAt < REFRESHABLE_AFTER_MS) return 'too_early';
    this.#tokens.delete(longLived);
    return this.#issueToken(grant.username, true);
  }
}
