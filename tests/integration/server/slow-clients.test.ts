import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ORIGIN, startApp } from '../auth/helpers.ts';

const CAP = 3;
let app: FastifyInstance;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  ({ app } = await startApp({ REQUEST_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS_PER_ADDRESS: String(CAP) }));
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

/** A keep-alive GET /api/health on `socket`; resolves with the status line, or null if the server closed it. */
async function health(socket: Socket): Promise<string | null> {
  if (socket.destroyed) return null;
  return new Promise((resolve) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString();
      const [head, body] = received.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1] ?? NaN);
      if (body !== undefined && Buffer.byteLength(body) >= length) done(head?.split('\r\n')[0] ?? '');
    };
    const onClose = () => done(null);
    const done = (result: string | null) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(result);
    };
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  });
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

describe('MAX_CONNECTIONS_PER_ADDRESS', () => {
  test('the connection past the cap is closed unanswered while the first ones keep working; a closed one frees its slot', async () => {
    const held = [];
    for (let index = 0; index < CAP; index++) {
      const socket = await open();
      // Answered: the server has counted this connection.
      expect(await health(socket)).toBe('HTTP/1.1 200 OK');
      held.push(socket);
    }

    const extra = await open();
    expect(await health(extra)).toBeNull();

    for (const socket of held) expect(await health(socket)).toBe('HTTP/1.1 200 OK');

    held[0]?.destroy();
    // The server sees the close a moment later; until then a new connection may still be refused.
    let answer: string | null = null;
    for (let attempt = 0; attempt < 50 && answer === null; attempt++) {
      answer = await health(await open());
      if (answer === null) await sleep(20);
    }
    expect(answer).toBe('HTTP/1.1 200 OK');
  });
});
