import { expect, test } from 'vitest';
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
