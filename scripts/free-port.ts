import { once } from 'node:events';
import { createServer } from 'node:net';

/** A TCP port on loopback that was free a moment ago (another process may still take it). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}
