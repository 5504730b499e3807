import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export interface ConnectionCapOptions {
  /** Open connections one remote address may hold at once; 0 turns the cap off. */
  maxPerAddress: number;
}

/** One remote address's open connections. */
interface AddressConnections {
  /** Connections without a request in flight, longest idle first (a Set keeps insertion order). */
  idle: Set<Socket>;
  /** Every open connection counted for the address, idle or busy. */
  open: number;
}

/** What the http server publishes on its diagnostics channels (Node >= 18.7). */
interface HttpServerMessage {
  socket: Socket;
  server: Server;
}

// Published for every request the parser reads, before the server's 'request' event, and when its
// response has been handed to the socket: the early static handler's answers included, since it sits
// inside the one 'request' listener.
const REQUEST_START = 'http.server.request.start';
const RESPONSE_FINISH = 'http.server.response.finish';

/**
 * The bookkeeping behind the cap: which of an address's connections are idle (no request in flight)
 * and in which order they became so. Every method is O(1).
 */
class ConnectionTable {
  private readonly addresses = new Map<string, AddressConnections>();
  /** Requests in flight per counted socket (pipelined requests can overlap). */
  private readonly inFlight = new Map<Socket, number>();
  private readonly addressOf = new Map<Socket, string>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Counts `socket` as open and idle; 'full' when the address already holds the cap. */
  admit(socket: Socket, address: string): 'admitted' | 'full' {
    let entry = this.addresses.get(address);
    if (!entry) {
      entry = { idle: new Set(), open: 0 };
      this.addresses.set(address, entry);
    }
    if (entry.open >= this.max) return 'full';
    entry.open += 1;
    // A fresh connection counts as idle (it may never send a request), but as the youngest one.
    entry.idle.add(socket);
    this.inFlight.set(socket, 0);
    this.addressOf.set(socket, address);
    return 'admitted';
  }

  /** The address's longest-idle connection, or undefined when every one has a request in flight. */
  oldestIdle(address: string): Socket | undefined {
    return this.addresses.get(address)?.idle.values().next().value;
  }

  /**
   * Stops counting `socket` (closed, or about to be); returns how many the address still holds, or
   * null when the socket was not counted (already forgotten).
   */
  forget(socket: Socket): number | null {
    const address = this.addressOf.get(socket);
    if (address === undefined) return null;
    this.addressOf.delete(socket);
    this.inFlight.delete(socket);
    const entry = this.addresses.get(address);
    if (!entry) return null;
    entry.idle.delete(socket);
    entry.open -= 1;
    if (entry.open <= 0) this.addresses.delete(address);
    return entry.open;
  }

  requestStarted(socket: Socket): void {
    const count = this.inFlight.get(socket);
    if (count === undefined) return;
    this.inFlight.set(socket, count + 1);
    if (count === 0) this.idleSet(socket)?.delete(socket);
  }

  responseFinished(socket: Socket): void {
    const count = this.inFlight.get(socket);
    if (count === undefined || count === 0) return;
    this.inFlight.set(socket, count - 1);
    // Added last: it is now the most recently idle of its address.
    if (count === 1) this.idleSet(socket)?.add(socket);
  }

  private idleSet(socket: Socket): Set<Socket> | undefined {
    const address = this.addressOf.get(socket);
    return address === undefined ? undefined : this.addresses.get(address)?.idle;
  }
}

/**
 * Caps the open connections per remote address (MAX_CONNECTIONS_PER_ADDRESS), counted from the
 * socket's 'connection' to its 'close', keep-alive sockets included: one client cannot hold every
 * socket the process can serve. At the cap a new connection first closes that address's longest-idle
 * connection (no request in flight: a browser's spare keep-alive socket, or one that never sent a
 * request), so a crowd behind one NAT keeps being served; it is refused (destroyed before any request
 * is read) only when every connection of the address is busy. Behind a proxy every connection comes
 * from the proxy (see the README).
 */
const connectionCap: FastifyPluginAsync<ConnectionCapOptions> = async (app, { maxPerAddress }) => {
  if (maxPerAddress <= 0) return;
  const table = new ConnectionTable(maxPerAddress);
  // Logged once per address until it holds at most half the cap again, so a flood is one line each: a
  // crowd that hovers at the cap (a busy NAT) would otherwise log each time one of its browsers closes.
  const warnedEvicting = new Set<string>();
  const warnedRefusing = new Set<string>();
  const warnOnce = (warned: Set<string>, address: string, message: string) => {
    if (warned.has(address)) return;
    warned.add(address);
    app.log.warn({ remoteAddress: address, maxPerAddress }, message);
  };

  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    // Already gone (no peer address): there is nothing to hold, and its 'close' may have passed.
    if (address === undefined) return;
    if (table.admit(socket, address) === 'full') {
      const idle = table.oldestIdle(address);
      if (!idle) {
        warnOnce(warnedRefusing, address, 'connection refused: every connection from one address is busy');
        socket.destroy();
        return;
      }
      warnOnce(warnedEvicting, address, 'idle connection closed: too many from one address');
      // Forgotten before it is destroyed, so its slot is free now, not when its 'close' arrives.
      table.forget(idle);
      idle.destroy();
      table.admit(socket, address);
    }
    socket.once('close', () => {
      const left = table.forget(socket);
      // An evicted socket was forgotten already: its close says nothing about the flood.
      if (left !== null && left <= maxPerAddress / 2) {
        warnedEvicting.delete(address);
        warnedRefusing.delete(address);
      }
    });
  });

  // Trap: a 'request' listener here would break the static site's early handler, which takes over
  // the server's one 'request' listener (publisher/serve/early-static.ts); the channels see every request.
  const onStart = (message: unknown) => {
    const { server, socket } = message as HttpServerMessage;
    if (server === app.server) table.requestStarted(socket);
  };
  const onFinish = (message: unknown) => {
    const { server, socket } = message as HttpServerMessage;
    if (server === app.server) table.responseFinished(socket);
  };
  subscribe(REQUEST_START, onStart);
  subscribe(RESPONSE_FINISH, onFinish);
  app.addHook('onClose', async () => {
    unsubscribe(REQUEST_START, onStart);
    unsubscribe(RESPONSE_FINISH, onFinish);
  });
};

export default fp(connectionCap, { name: 'connection-cap' });
