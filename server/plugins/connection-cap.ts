import type { Socket } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export interface ConnectionCapOptions {
  /** Open connections one remote address may hold at once; 0 turns the cap off. */
  maxPerAddress: number;
}

/**
 * Caps the open connections per remote address (MAX_CONNECTIONS_PER_ADDRESS), counted from the
 * socket's 'connection' to its 'close', keep-alive sockets included: one client cannot hold every
 * socket the process can serve, slow bodies or not. A connection past the cap is destroyed before any
 * request on it is read. Behind a proxy every connection comes from the proxy (see the README).
 */
const connectionCap: FastifyPluginAsync<ConnectionCapOptions> = async (app, { maxPerAddress }) => {
  if (maxPerAddress <= 0) return;
  const open = new Map<string, number>();
  // Logged once per address until its count drops below the cap again, so a flood is one line.
  const warned = new Set<string>();

  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    // Already gone (no peer address): there is nothing to hold, and its 'close' may have passed.
    if (address === undefined) return;
    const count = open.get(address) ?? 0;
    if (count >= maxPerAddress) {
      if (!warned.has(address)) {
        warned.add(address);
        app.log.warn(
          { remoteAddress: address, maxPerAddress },
          'connection refused: too many from one address',
        );
      }
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      if (left < maxPerAddress) warned.delete(address);
    });
  });
};

export default fp(connectionCap, { name: 'connection-cap' });
