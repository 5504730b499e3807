import { once } from 'node:events';
import { createServer } from 'node:http';

export interface ReceivedCall {
  method: string;
  url: string;
  contentType: string | undefined;
  body: unknown;
}

/** How the receiver answers one call: a status, or held open until the test releases it. */
export type Answer = number | { hold: Promise<number> };

/**
 * A build-hook receiver on a free loopback port (node:http), standing in for Netlify's or
 * Cloudflare's: it records every call and answers from a script of answers (200 once it runs out).
 */
export async function startHookReceiver() {
  const calls: ReceivedCall[] = [];
  const answers: Answer[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      calls.push({
        method: request.method ?? '',
        url: request.url ?? '',
        contentType: request.headers['content-type'],
        body: text ? (JSON.parse(text) as unknown) : null,
      });
      for (const waiter of waiters.filter((w) => calls.length >= w.count)) waiter.resolve();
      const answer = answers.shift() ?? 200;
      void (typeof answer === 'number' ? Promise.resolve(answer) : answer.hold).then((status) => {
        response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    calls,
    /** Queues answers for the next calls, in order. */
    answer: (...next: Answer[]) => answers.push(...next),
    /** Resolves once `count` calls in all have arrived (an event, not a duration). */
    received: (count: number) =>
      new Promise<void>((resolve) => {
        if (calls.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A held answer and the function that releases it with `status`. */
export function heldAnswer(): { answer: Answer; release: (status: number) => void } {
  let release: (status: number) => void = () => {};
  const hold = new Promise<number>((resolve) => (release = resolve));
  return { answer: { hold }, release };
}
