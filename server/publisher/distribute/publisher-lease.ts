import type { PublisherLeaseRepository } from '../../repositories/publisher-lease.ts';

export interface LeaseOptions {
  repository: PublisherLeaseRepository;
  instanceId: string;
  /** How long a claim holds without renewal: a killed holder is replaced this long after it died. */
  ttlMs: number;
  /** Called when this instance becomes the publisher (at start or taking over). */
  onGained(): void;
  onLost(): void;
  onError(error: unknown): void;
}

export interface PublisherLease {
  /** Whether this instance publishes now. */
  isHolder(): boolean;
  /** Stops renewing and gives the lease up, so another instance takes over at once. */
  close(): Promise<void>;
}

/**
 * Holds the publisher lease when it can: one claim now, then a renewal or a new attempt every third
 * of the lease's life. A failed renewal (the database unreachable) counts as lost: two instances
 * must never publish at once, so doubt means stepping down.
 */
export async function holdPublisherLease(options: LeaseOptions): Promise<PublisherLease> {
  const { repository, instanceId, ttlMs } = options;
  let holder = false;
  let attempting = false;
  const attempt = async () => {
    // A slow database must not stack claims: the next tick tries again.
    if (attempting) return;
    attempting = true;
    let now: boolean;
    try {
      now = await repository.claimLease(instanceId, ttlMs);
    } catch (error) {
      options.onError(error);
      now = false;
    }
    if (now && !holder) {
      holder = true;
      options.onGained();
    } else if (!now && holder) {
      holder = false;
      options.onLost();
    }
    attempting = false;
  };
  await attempt();
  const timer = setInterval(() => void attempt(), Math.max(50, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    isHolder: () => holder,
    async close() {
      clearInterval(timer);
      if (holder) {
        holder = false;
        await repository.releaseLease(instanceId).catch((error: unknown) => options.onError(error));
      }
    },
  };
}
