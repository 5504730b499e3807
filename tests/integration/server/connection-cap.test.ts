import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { EnvSchema } from '../../../server/config/env-schema.ts';
import { ORIGIN, startApp } from '../auth/helpers.ts';
import { keepAliveGet } from '../helpers/keep-alive.ts';

/** MAX_CONNECTIONS_PER_ADDRESS when it is not set. */
const DEFAULT_CAP = EnvSchema.shape.MAX_CONNECTIONS_PER_ADDRESS.parse(undefined);

// Real sockets on loopback: every connection comes from 127.0.0.1, as a crowd behind one NAT does.
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A raw TCP connection from 127.0.0.1 to `port`, destroyed after the test. */
async function open(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

/** A keep-alive GET of `path` on `socket` (see keepAliveGet). */
const get = (socket: Socket, path: string, connection = 'keep-alive') =>
  keepAliveGet(socket, path, { connection });

/**
 * Starts a request whose body never finishes on `socket`, and resolves once the server has read its
 * headers (it answers `Expect: 100-continue` as it starts the request): the connection is busy.
 */
async function busy(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => done(chunk.toString().startsWith('HTTP/1.1 100 Continue'));
    const onClose = () => done(false);
    const done = (result: boolean) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(result);
    };
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.write(
      `POST /api/auth/callback HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${ORIGIN}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n{"code":',
    );
  });
}

/** Waits (at most two seconds) until the server has closed `socket`; true if it did. */
async function closedByServer(socket: Socket): Promise<boolean> {
  for (let attempt = 0; attempt < 100 && !socket.closed; attempt++) await sleep(20);
  return socket.closed;
}

/** How many connections the app's server holds now. */
function connections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve, reject) =>
    app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** The app's warnings with this message, from its captured log. */
function warnings(log: string[], message: string): number {
  return log.filter((line) => (JSON.parse(line) as { msg?: string }).msg === message).length;
}

describe(`a crowd of idle keep-alive connections from one address (the default cap, ${DEFAULT_CAP})`, () => {
  let app: FastifyInstance;
  let port: number;
  const log: string[] = [];
  beforeAll(async () => {
    ({ app } = await startApp({ LOG_LEVEL: 'warn' }, { logStream: { write: (line) => log.push(line) } }));
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  test('300 idle connections do not stop the next visitor: the longest idle ones are closed, one log line', async () => {
    const crowd: Socket[] = [];
    for (let index = 0; index < 300; index++) {
      const socket = await open(port);
      // Pages come from the early static handler, the API from Fastify: both leave the connection idle.
      expect(await get(socket, index % 2 === 0 ? '/' : '/api/health')).toBe('HTTP/1.1 200 OK');
      crowd.push(socket);
    }
    const cap = DEFAULT_CAP;
    // The first 172 were closed, oldest first, to let the later ones in; the newest 128 are still open.
    const survivors = crowd.slice(300 - cap);
    for (const socket of crowd.slice(0, 300 - cap)) expect(await closedByServer(socket)).toBe(true);
    for (const socket of survivors) expect(socket.closed).toBe(false);

    const visitor = await open(port);
    expect(await get(visitor, '/')).toBe('HTTP/1.1 200 OK');
    expect(await get(visitor, '/api/health')).toBe('HTTP/1.1 200 OK');
    // The visitor took the slot of the longest idle connection, and only that one.
    const [longestIdle, ...others] = survivors;
    expect(longestIdle && (await closedByServer(longestIdle))).toBe(true);
    for (const socket of others) expect(socket.closed).toBe(false);

    expect(warnings(log, 'idle connection closed: too many from one address')).toBe(1);
    expect(warnings(log, 'connection refused: every connection from one address is busy')).toBe(0);
  });
});

describe('a small cap (4): busy connections are never closed for a new one', () => {
  const CAP = 4;
  let app: FastifyInstance;
  let port: number;
  const log: string[] = [];
  beforeAll(async () => {
    ({ app } = await startApp(
      { LOG_LEVEL: 'warn', MAX_CONNECTIONS_PER_ADDRESS: String(CAP) },
      { logStream: { write: (line) => log.push(line) } },
    ));
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());
  // Each test starts from no connections: the server sees the previous test's closes a moment later.
  beforeEach(async () => {
    for (let attempt = 0; attempt < 100 && (await connections(app)) > 0; attempt++) await sleep(20);
    expect(await connections(app)).toBe(0);
  });

  test('with every connection busy a new one is refused (one log line); a finished request frees its connection', async () => {
    const held: Socket[] = [];
    for (let index = 0; index < CAP; index++) {
      const socket = await open(port);
      expect(await busy(socket)).toBe(true);
      held.push(socket);
    }
    for (let attempt = 0; attempt < 3; attempt++)
      expect(await get(await open(port), '/api/health')).toBeNull();
    for (const socket of held) expect(socket.closed).toBe(false);
    expect(warnings(log, 'connection refused: every connection from one address is busy')).toBe(1);

    // The first request's body arrives: it is answered (400, a bad code) and its connection turns idle.
    const [first, ...others] = held;
    if (!first) throw new Error('no connection held');
    const answered = new Promise<string>((resolve) =>
      first.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? '')),
    );
    first.write(`"x"}${' '.repeat(100 - '{"code":"x"}'.length)}`);
    expect(await answered).toBe('HTTP/1.1 400 Bad Request');

    // A newcomer now gets in, in place of that idle connection; the busy ones are untouched.
    expect(await get(await open(port), '/api/health')).toBe('HTTP/1.1 200 OK');
    expect(await closedByServer(first)).toBe(true);
    for (const socket of others) expect(socket.closed).toBe(false);
  });

  test('connections that never finish their headers hold no request: they are the first closed for a newcomer', async () => {
    const slow: Socket[] = [];
    for (let index = 0; index < CAP; index++) {
      const socket = await open(port);
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      slow.push(socket);
    }
    expect(await get(await open(port), '/api/health')).toBe('HTTP/1.1 200 OK');
    const [oldest, ...others] = slow;
    expect(oldest && (await closedByServer(oldest))).toBe(true);
    for (const socket of others) expect(socket.closed).toBe(false);
  });

  test('a crowd hovering at the cap logs one line; a new flood after it eased to half the cap logs another', async () => {
    const message = 'idle connection closed: too many from one address';
    const before = warnings(log, message);
    const crowd: Socket[] = [];
    const join = async () => {
      const socket = await open(port);
      expect(await get(socket, '/api/health')).toBe('HTTP/1.1 200 OK');
      crowd.push(socket);
    };
    /** Closes `count` of the crowd's open connections, then waits until the server holds `left`. */
    const leave = async (count: number, left: number) => {
      for (const socket of crowd.filter((member) => !member.closed).slice(0, count)) socket.destroy();
      for (let attempt = 0; attempt < 100 && (await connections(app)) !== left; attempt++) await sleep(20);
      expect(await connections(app)).toBe(left);
    };

    for (let index = 0; index <= CAP; index++) await join();
    expect(warnings(log, message)).toBe(before + 1);
    // One browser leaves and two arrive: the address stayed above half the cap, the same flood.
    await leave(1, CAP - 1);
    await join();
    await join();
    expect(warnings(log, message)).toBe(before + 1);
    // It eases to half the cap; the next time it overflows is a new flood.
    await leave(CAP / 2, CAP / 2);
    for (let index = 0; index <= CAP / 2; index++) await join();
    expect(warnings(log, message)).toBe(before + 2);
  });

  test('the count never drifts: closed and evicted connections free exactly their own slot', async () => {
    // Connections the server closes itself (Connection: close) free their slot: far more than the cap get in.
    for (let round = 0; round < 3 * CAP; round++) {
      const socket = await open(port);
      expect(await get(socket, '/api/health', 'close')).toBe('HTTP/1.1 200 OK');
      expect(await closedByServer(socket)).toBe(true);
    }
    // Connections the client closes free theirs too.
    for (let round = 0; round < 3 * CAP; round++) {
      const socket = await open(port);
      expect(await get(socket, '/')).toBe('HTTP/1.1 200 OK');
      socket.destroy();
      await once(socket, 'close');
    }
    // Idle ones closed for newcomers are counted once (their own 'close' comes later).
    const idle: Socket[] = [];
    for (let round = 0; round < 5 * CAP; round++) {
      const socket = await open(port);
      expect(await get(socket, '/api/health')).toBe('HTTP/1.1 200 OK');
      idle.push(socket);
    }
    for (const socket of idle.slice(0, -CAP)) expect(await closedByServer(socket)).toBe(true);

    // Exactly CAP busy connections fit, whatever came before; the one after them is refused.
    const held: Socket[] = [];
    for (let index = 0; index < CAP; index++) {
      const socket = await open(port);
      expect(await busy(socket)).toBe(true);
      held.push(socket);
    }
    expect(await get(await open(port), '/api/health')).toBeNull();
    for (const socket of held) expect(socket.closed).toBe(false);
  });
});
