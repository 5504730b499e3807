export interface CoalescedRunner {
  /**
   * Asks for a run within `delayMs` (the runner's own delay when omitted). Every request made before
   * a run starts is served by it; one made while a run runs is served by one more run after it.
   */
  request(delayMs?: number): void;
  /** Resolves once nothing is running or queued. */
  settled(): Promise<void>;
  /**
   * Refuses further requests and waits for the running one (shutdown). A run still waiting starts
   * at once, or with `dropWaitingOnClose` is dropped.
   */
  close(): Promise<void>;
}

/**
 * Runs `run` in the background, one at a time, coalescing bursts of requests: each request names
 * how long it may wait (`delayMs` by default), and the next run starts when the most urgent waiting
 * request is due, serving them all. A request that arrives once a run has started is served by
 * exactly one more run after it. A failure goes to `onError`; later requests still run. Shared by the
 * site publisher (short waits for approvals, long ones for member changes) and the deploy triggers.
 * With `dropWaitingOnClose`, close() drops a waiting run instead of starting it (the deploy
 * triggers: the next start checks again anyway).
 *
 * Waits on the global setTimeout and Date.now, so a test's fake clock drives it.
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
  /** When the waiting run is due (the earliest of its requests); null: no run waits. */
  let due: number | null = null;
  let closed = false;
  /** Ends the current wait early (a more urgent request, or close). */
  let wake = () => {};

  /** Waits once, until `due` or a wake-up; the loop checks again. Always yields a turn first. */
  const waitOnce = () =>
    new Promise<void>((resolve) => {
      // Once closed nothing waits: a run still due starts (or is dropped) at once.
      const timer = setTimeout(done, closed ? 0 : Math.max(0, (due ?? 0) - Date.now()));
      function done() {
        clearTimeout(timer);
        wake = () => {};
        resolve();
      }
      wake = done;
    });

  async function loop(): Promise<void> {
    while (due !== null) {
      do await waitOnce();
      while (due !== null && Date.now() < due && !closed);
      if (closed && dropWaitingOnClose) break;
      // Cleared before the run: a request that arrives during it is served by one more run.
      due = null;
      try {
        await run();
      } catch (error) {
        onError(error);
      }
    }
    due = null;
    running = null;
  }

  const settled = async () => {
    while (running) await running;
  };
  return {
    request(wait = delayMs) {
      if (closed) return;
      const at = Date.now() + Math.max(0, wait);
      if (due === null || at < due) {
        due = at;
        wake();
      }
      running ??= loop();
    },
    settled,
    async close() {
      closed = true;
      wake();
      await settled();
    },
  };
}
