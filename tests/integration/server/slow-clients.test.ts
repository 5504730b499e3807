import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ORIGIN, startApp } from '../auth/helpers.ts';

let app: FastifyInstance;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  ({ app } = await startApp({ REQUEST_TIMEOUT_SECONDS: '1' }));
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await app.close();
});

/** A raw TCP connection from 127.0.0.1, remembered so every test leaves none behind. */
async function open(): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

/** Everything the server sends until it closes the connection. */
async function untilClosed(socket: Socket): Promise<string> {
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  if (!socket.closed) await once(socket, 'close');
  return received;
}

describe('REQUEST_TIMEOUT_SECONDS', () => {
  test('a body that never finishes is answered 408 in our shape and its connection closed', async () => {
    const socket = await open();
    // A request our own pages could send (same origin), so only the body's pace can fail it.
    socket.write(
      `POST /api/auth/callback HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${ORIGIN}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"code":',
    );
    const response = await untilClosed(socket);
    expect(response.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(response.toLowerCase()).toContain('connection: close');
    expect(response.split('\r\n\r\n')[1]).toBe(
      JSON.stringify({ detail: 'The request took too long to arrive.' }),
    );
  });

  test('headers that never finish are answered 408 as well', async () => {
    const socket = await open();
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect((await untilClosed(socket)).split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  });
});
