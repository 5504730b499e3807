import { setTimeout as sleep } from 'node:timers/promises';

export interface CoalescedRunner {
  /** Asks for a run soon; requests made while one waits or runs are served by one more run after it. */
  request(): void;
  /** Resolves once nothing is running or queued. */
  settled(): Promise<void>;
  /** Refuses further requests and waits for the running one (shutdown). */
  close(): Promise<void>;
}

/**
 * Runs `run` in the background, one at a time, coalescing bursts of requests: a run starts
 * `delayMs` after the first request (gathering the burst), and any request that arrives once that
 * run has started is served by exactly one more run after it. A failure goes to `onError`; later
 * requests still run. Shared by the site publisher and the deploy triggers. With
 * `dropWaitingOnClose`, close() also cuts a waiting run short and drops it (the deploy triggers: their
 * gathering wait is longer than a shutdown may take, and the next start checks again anyway).
 */
export function createCoalescedRunner(
  run: () => Promise<void>,
  {
    delayMs = 0,
    onError,
    dropWaitingOnClose = false,
  }: { delayMs?: number | undefined; onError: (error: unknown) => void; dropWaitingOnClose?: boolean },
): CoalescedRunner {
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const closing = new AbortController();

  async function loop(): Promise<void> {
    do {
      await sleep(delayMs, undefined, { signal: closing.signal }).catch(() => {});
      if (closed && dropWaitingOnClose) break;
      // Reset after the wait: a request that arrived during it is served by this run.
      again = false;
      try {
        await run();
      } catch (error) {
        onError(error);
      }
    } while (again && !closed);
    running = null;
  }

  const settled = async () => {
    while (running) await running;
  };
  return {
    request() {
      if (closed) return;
      if (running) again = true;
      else running = loop();
    },
    settled,
    async close() {
      closed = true;
      if (dropWaitingOnClose) closing.abort();
      await settled();
    },
  };
}
