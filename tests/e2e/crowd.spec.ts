import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { keepAliveGet } from '../integration/helpers/keep-alive.ts';
import { TEST_SITE } from '../site-under-test.ts';
import { expect, test, waitForHydration } from './fixtures.ts';

/** About fifty browsers behind one office NAT, each holding its few keep-alive connections. */
const CROWD = 300;

test(`${CROWD} idle keep-alive connections from this address do not stop a visitor: home loads and its islands work`, async ({
  page,
}) => {
  const { hostname, port } = new URL(TEST_SITE.publicUrl);
  const crowd: Socket[] = [];
  try {
    for (let index = 0; index < CROWD; index++) {
      const socket = connect(Number(port), hostname);
      crowd.push(socket);
      socket.on('error', () => {});
      await once(socket, 'connect');
      // One request each, so every one is a real keep-alive connection, idle once answered: past the
      // cap (128 by default) each newcomer is let in by closing the longest idle one.
      expect(
        await keepAliveGet(socket, index % 2 === 0 ? '/' : '/api/health', { host: `${hostname}:${port}` }),
      ).toBe('HTTP/1.1 200 OK');
    }

    await page.goto('/');
    await waitForHydration(page);
    const imagesButton = page.getByRole('button', { name: 'Images', exact: true });
    await imagesButton.click();
    await expect(imagesButton).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('status')).toContainText('image threads');

    // The header's island wakes the API (GET /api/health) and goes on to the provider's sign-in.
    await page.getByRole('button', { name: 'Login with Threads' }).click();
    await expect(page).toHaveURL(/\/simulated-threads\/oauth\/authorize\?/);
  } finally {
    for (const socket of crowd) socket.destroy();
  }
});
