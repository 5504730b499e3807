import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createSitePublisher } from '../../../../server/publisher/publish-site.ts';

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (message: string) => lines.push(`info ${message}`),
      error: (_object: object, message: string) => lines.push(`error ${message}`),
    },
  };
}

/** Lets the publisher's promises run until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 1000) throw new Error('the condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('a burst of requests is served by at most one more run after the running one', async () => {
  let runs = 0;
  let reloads = 0;
  const { log } = recorder();
  let release = () => {};
  const publisher = createSitePublisher({
    publish: async () => {
      runs += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return true;
    },
    reload: async () => {
      reloads += 1;
    },
    log,
    delayMs: 0,
  });
  publisher.request();
  await until(() => runs === 1);
  for (let i = 0; i < 10; i++) publisher.request();
  release();
  await until(() => runs === 2);
  release();
  await publisher.settled();
  expect(runs).toBe(2);
  expect(reloads).toBe(2);
});

test('without a build only the catalogue is reloaded; a failure is logged and later requests still run', async () => {
  const outcomes: (boolean | Error)[] = [new Error('astro exploded'), false, true];
  const reloads: string[] = [];
  const { lines, log } = recorder();
  const publisher = createSitePublisher({
    publish: async () => {
      const outcome = outcomes.shift();
      if (outcome instanceof Error) throw outcome;
      return outcome ?? false;
    },
    reload: async (catalogueOnly) => {
      reloads.push(catalogueOnly ? 'catalogue' : 'site');
    },
    log,
    delayMs: 0,
  });
  for (let i = 0; i < 3; i++) {
    publisher.request();
    await publisher.settled();
  }
  expect(lines).toEqual([
    'error The site could not be rebuilt; the previous site stays online.',
    'info The rebuilt site is being served.',
  ]);
  expect(reloads).toEqual(['catalogue', 'site']);
});

test('after close, requests are ignored', async () => {
  let runs = 0;
  const publisher = createSitePublisher({
    publish: async () => {
      runs += 1;
      return false;
    },
    reload: async () => {},
    log: recorder().log,
    delayMs: 0,
  });
  await publisher.close();
  publisher.request();
  await publisher.settled();
  expect(runs).toBe(0);
});

/**
 * A publisher over a fake "database" of gem states and approvals on a fake clock: each publish records
 * what it exported, as the real one exports whatever is committed when it starts (the profiles only
 * when asked to: otherwise they stay as last published).
 */
function memberCapped(memberIntervalMs: number) {
  const state = { gems: 0, approvals: 0 };
  let exportedGems = 0;
  const published: { gems: number; approvals: number }[] = [];
  const publisher = createSitePublisher({
    publish: async (profiles) => {
      if (profiles) exportedGems = state.gems;
      published.push({ gems: exportedGems, approvals: state.approvals });
      return true;
    },
    reload: async () => {},
    log: recorder().log,
    delayMs: 250,
    memberIntervalMs,
  });
  return { state, published, publisher };
}

const FIVE_MINUTES = 5 * 60_000;

describe('member changes capped, approvals fast (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('ten gem toggles within the interval publish twice: the first promptly, the last state at the interval', async () => {
    const { state, published, publisher } = memberCapped(FIVE_MINUTES);
    // A toggle every 12 seconds, as the issue saw: ten within two minutes.
    for (let toggle = 1; toggle <= 10; toggle++) {
      state.gems = toggle;
      publisher.request('profiles');
      await vi.advanceTimersByTimeAsync(12_000);
    }
    expect(published).toEqual([{ gems: 1, approvals: 0 }]);
    await vi.advanceTimersByTimeAsync(FIVE_MINUTES);
    // Never dropped: the last toggle is published once the interval has passed, and nothing after it.
    expect(published).toEqual([
      { gems: 1, approvals: 0 },
      { gems: 10, approvals: 0 },
    ]);
    await vi.advanceTimersByTimeAsync(3 * FIVE_MINUTES);
    expect(published).toHaveLength(2);
    // A quiet interval later, the next member change is prompt again.
    state.gems = 11;
    publisher.request('profiles');
    await vi.advanceTimersByTimeAsync(250);
    expect(published).toHaveLength(3);
    expect(published.at(-1)).toEqual({ gems: 11, approvals: 0 });
    await publisher.close();
  });

  test('an approval during the interval publishes within its short delay and carries the waiting member changes', async () => {
    const { state, published, publisher } = memberCapped(FIVE_MINUTES);
    state.gems = 1;
    publisher.request('profiles');
    await vi.advanceTimersByTimeAsync(250);
    state.gems = 2;
    publisher.request('profiles');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(published).toHaveLength(1);

    state.approvals = 1;
    publisher.request('threads');
    await vi.advanceTimersByTimeAsync(249);
    expect(published).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(published).toEqual([
      { gems: 1, approvals: 0 },
      { gems: 2, approvals: 1 },
    ]);
    // It counts as the member publish of its interval: a toggle right after it waits for the interval.
    state.gems = 3;
    publisher.request('profiles');
    await vi.advanceTimersByTimeAsync(FIVE_MINUTES - 1_000);
    expect(published).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(published.at(-1)).toEqual({ gems: 3, approvals: 1 });
    // Nothing else was waiting.
    await vi.advanceTimersByTimeAsync(2 * FIVE_MINUTES);
    expect(published).toHaveLength(3);
    await publisher.close();
  });

  test('a periodic publish within the interval leaves the waiting member changes to the interval', async () => {
    const { state, published, publisher } = memberCapped(FIVE_MINUTES);
    state.gems = 1;
    publisher.request('profiles');
    await vi.advanceTimersByTimeAsync(250);
    state.gems = 2;
    publisher.request('profiles');
    await vi.advanceTimersByTimeAsync(60_000);
    // Another instance approved a thread; this one's five-minute tick picks it up.
    state.approvals = 1;
    publisher.request();
    await vi.advanceTimersByTimeAsync(250);
    expect(published).toEqual([
      { gems: 1, approvals: 0 },
      { gems: 1, approvals: 1 },
    ]);
    // The held gem is published once the interval since the first publish (at 250 ms) has passed.
    await vi.advanceTimersByTimeAsync(250 + FIVE_MINUTES - 60_500 - 1);
    expect(published).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(published.at(-1)).toEqual({ gems: 2, approvals: 1 });
    await vi.advanceTimersByTimeAsync(2 * FIVE_MINUTES);
    expect(published).toHaveLength(3);
    await publisher.close();
  });

  test('with no cap (0) member changes publish like approvals; close publishes a waiting member change', async () => {
    const uncapped = memberCapped(0);
    for (let toggle = 1; toggle <= 3; toggle++) {
      uncapped.state.gems = toggle;
      uncapped.publisher.request('profiles');
      await vi.advanceTimersByTimeAsync(250);
    }
    expect(uncapped.published.map(({ gems }) => gems)).toEqual([1, 2, 3]);
    await uncapped.publisher.close();

    const capped = memberCapped(FIVE_MINUTES);
    capped.publisher.request('profiles');
    await vi.advanceTimersByTimeAsync(250);
    capped.state.gems = 7;
    capped.publisher.request('profiles');
    const closing = capped.publisher.close();
    await vi.advanceTimersByTimeAsync(0);
    await closing;
    expect(capped.published.map(({ gems }) => gems)).toEqual([0, 7]);
  });
});
