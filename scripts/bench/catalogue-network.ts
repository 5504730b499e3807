// What a Chromium page transferred, from the DevTools protocol, and what the server sends with brotli.
import { get } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';

/** One request of the page: what it was and how many bytes it took on the wire (headers included). */
export interface Transfer {
  url: string;
  /** The DevTools resource type: Document, Script, Fetch, Image... */
  type: string;
  status: number;
  encoding: string;
  /** `Network.loadingFinished` `encodedDataLength`; 0 until it finished. */
  bytes: number;
  done: boolean;
}

/** Every request a page makes, in order, as Chromium reports it. */
export class NetworkLog {
  readonly #transfers: Transfer[] = [];
  readonly #byId = new Map<string, Transfer>();
  #lastEvent = performance.now();

  /** Starts recording `page`'s requests (before it navigates). */
  static async attach(context: BrowserContext, page: Page): Promise<NetworkLog> {
    const log = new NetworkLog();
    const cdp = await context.newCDPSession(page);
    cdp.on('Network.requestWillBeSent', ({ requestId, request, type }) => {
      log.#lastEvent = performance.now();
      if (log.#byId.has(requestId)) return; // a redirect: one transfer
      const transfer = {
        url: request.url,
        type: type ?? 'Other',
        status: 0,
        encoding: '',
        bytes: 0,
        done: false,
      };
      log.#byId.set(requestId, transfer);
      log.#transfers.push(transfer);
    });
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      const transfer = log.#byId.get(requestId);
      if (!transfer) return;
      transfer.status = response.status;
      const header = Object.entries(response.headers).find(
        ([name]) => name.toLowerCase() === 'content-encoding',
      );
      transfer.encoding = header?.[1] ?? 'identity';
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      log.#lastEvent = performance.now();
      const transfer = log.#byId.get(requestId);
      if (transfer) Object.assign(transfer, { bytes: encodedDataLength, done: true });
    });
    cdp.on('Network.loadingFailed', ({ requestId }) => {
      log.#lastEvent = performance.now();
      const transfer = log.#byId.get(requestId);
      if (transfer) transfer.done = true;
    });
    await cdp.send('Network.enable');
    return log;
  }

  /** A position in the log: `since(mark)` returns what came after it. */
  mark(): number {
    return this.#transfers.length;
  }

  since(mark: number): Transfer[] {
    return this.#transfers.slice(mark);
  }

  /** Waits until no request is in flight and nothing happened for `quietMs`. */
  async quiet(quietMs = 500, timeoutMs = 60_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const busy = this.#transfers.some((transfer) => !transfer.done);
      if (!busy && performance.now() - this.#lastEvent >= quietMs) return;
      if (performance.now() > deadline) throw new Error('the page kept the network busy');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The bytes of the transfers whose URL path passes `test`. */
export function bytesOf(
  transfers: readonly Transfer[],
  test: (path: string) => boolean = () => true,
): number {
  return transfers
    .filter((transfer) => test(new URL(transfer.url).pathname))
    .reduce((sum, transfer) => sum + transfer.bytes, 0);
}

/** The body of `url` as the server sends it to a client that accepts only brotli: bytes and encoding. */
export function servedBrotli(url: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'br' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`GET ${url} answered ${response.statusCode}`));
        else resolve({ bytes, encoding: String(response.headers['content-encoding'] ?? 'identity') });
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}
