import { randomBytes } from 'node:crypto';

const DAY = 24 * 3_600_000;

/** Threads' publishing limit: 250 posts per user in any 24 hours (threads-api.md section 7). */
export const PUBLISHING_QUOTA = { total: 250, durationSeconds: 86_400 } as const;
/** A container not published within 24 hours expires (threads-api.md section 10, publishing). */
export const CONTAINER_LIFETIME_MS = DAY;

/** A post published through the simulated publishing endpoints. */
export interface PublishedPost {
  id: string;
  username: string;
  text: string;
  quotePostId: string | null;
  shortcode: string;
  timestamp: string;
}

/** A container's state as `GET /{container-id}?fields=status` reports it (threads-api.md section 10). */
export type ContainerState = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'EXPIRED' | 'ERROR';

/** How the next containers are processed (a test control): slowly, or into an ERROR. */
export interface ContainerProcessing {
  outcome: 'slow' | 'error';
  /** How long a container stays IN_PROGRESS on the store's clock. */
  processingMs: number;
  /** The error_message of an ERROR container. */
  errorMessage: string;
  /** How many of the next containers are processed this way. */
  times: number;
}

/** Why a container cannot be published: its state, or the publishing limit. */
export type PublishRefusal = 'not_found' | 'not_ready' | 'published' | 'expired' | 'error' | 'quota';

interface Container {
  username: string;
  text: string;
  quotePostId: string | null;
  createdAt: number;
  /** Until then it is IN_PROGRESS; then FINISHED, or ERROR when `errorMessage` is set. */
  finishesAt: number;
  errorMessage: string | null;
  /** The post's id once published. */
  publishedId: string | null;
}

/**
 * The simulated provider's publishing: media containers with their status lifecycle (IN_PROGRESS,
 * FINISHED, PUBLISHED, EXPIRED 24 hours after creation, ERROR), the posts published from them and
 * the 250 posts per rolling 24 hours (threads-api.md sections 7 and 10). In memory, on the
 * provider's clock.
 */
export class SimulatedPublishing {
  readonly #containers = new Map<string, Container>();
  readonly #published = new Map<string, PublishedPost>();
  /** How the next containers are processed; empty: a text container finishes at once. */
  #processing: ContainerProcessing[] = [];
  #nextMediaId = 18_100_000_000_000_000n;
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** A media container waiting to be published (Threads' first publishing step); returns its id. */
  createContainer(username: string, text: string, quotePostId: string | null): string {
    const id = String(this.#nextMediaId++);
    const createdAt = this.#now();
    const processing = this.#processing[0];
    if (processing && --processing.times <= 0) this.#processing.shift();
    this.#containers.set(id, {
      username,
      text,
      quotePostId,
      createdAt,
      finishesAt: createdAt + (processing?.processingMs ?? 0),
      errorMessage: processing?.outcome === 'error' ? processing.errorMessage : null,
      publishedId: null,
    });
    return id;
  }

  /** Makes the next containers slow or failing (a test control); an empty list restores the default. */
  setProcessing(processing: readonly ContainerProcessing[]): void {
    this.#processing = processing.filter((entry) => entry.times > 0).map((entry) => ({ ...entry }));
  }

  /** The state of a user's container, or null when it is not one of theirs. */
  state(
    username: string,
    creationId: string,
  ): { status: ContainerState; errorMessage: string | null } | null {
    const container = this.#containers.get(creationId);
    if (!container || container.username !== username) return null;
    const now = this.#now();
    if (container.publishedId) return { status: 'PUBLISHED', errorMessage: null };
    if (container.errorMessage && now >= container.finishesAt)
      return { status: 'ERROR', errorMessage: container.errorMessage };
    if (now - container.createdAt >= CONTAINER_LIFETIME_MS) return { status: 'EXPIRED', errorMessage: null };
    return { status: now < container.finishesAt ? 'IN_PROGRESS' : 'FINISHED', errorMessage: null };
  }

  /** How many posts the user published in the rolling 24 hours before now. */
  quotaUsage(username: string): number {
    const since = this.#now() - PUBLISHING_QUOTA.durationSeconds * 1000;
    let used = 0;
    for (const post of this.#published.values())
      if (post.username === username && Date.parse(post.timestamp) > since) used++;
    return used;
  }

  /**
   * Publishes the user's FINISHED container once, within the publishing limit; otherwise says why
   * not. An unknown container and another user's are alike: not found.
   */
  publish(username: string, creationId: string): PublishedPost | PublishRefusal {
    const state = this.state(username, creationId);
    const container = this.#containers.get(creationId);
    if (!state || !container) return 'not_found';
    if (state.status !== 'FINISHED') {
      const refusals = {
        IN_PROGRESS: 'not_ready',
        PUBLISHED: 'published',
        EXPIRED: 'expired',
        ERROR: 'error',
      };
      return refusals[state.status] as PublishRefusal;
    }
    if (this.quotaUsage(username) >= PUBLISHING_QUOTA.total) return 'quota';
    const post: PublishedPost = {
      id: String(this.#nextMediaId++),
      username,
      text: container.text,
      quotePostId: container.quotePostId,
      shortcode: `SIM${randomBytes(6).toString('base64url')}`,
      timestamp: new Date(this.#now()).toISOString(),
    };
    container.publishedId = post.id;
    this.#published.set(post.id, post);
    return post;
  }

  /** A published post by its id. */
  published(id: string): PublishedPost | null {
    return this.#published.get(id) ?? null;
  }

  /** A published post by its shortcode (oEmbed finds posts by permalink), or null. */
  publishedByShortcode(shortcode: string): PublishedPost | null {
    for (const post of this.#published.values()) if (post.shortcode === shortcode) return post;
    return null;
  }

  /** The user's published posts, newest first (they lead the user's own posts list). */
  publishedBy(username: string): PublishedPost[] {
    return [...this.#published.values()].filter((post) => post.username === username).reverse();
  }
}
