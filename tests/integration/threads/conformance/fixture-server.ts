import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/** A parameter the client must send: an exact value, or a field list naming at least these fields. */
type Expected = string | string[];

/** One request and answer of the Threads API, as written in fixtures/*.json (see fixtures/README.md). */
export interface Exchange {
  section: string;
  request: {
    method: 'GET' | 'POST';
    path: string;
    query?: Record<string, Expected>;
    form?: Record<string, Expected>;
  };
  response: { status: number; json?: unknown; raw?: string };
}

/** What the client sent, as the server received it. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  body: string;
}

/** The exchanges of one fixture file, by name. */
export function loadFixtures(file: string): Record<string, Exchange> {
  return JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as Record<
    string,
    Exchange
  >;
}

/** The top-level names of a Graph field list (`a,b{c,d},e` -> a, b, e). */
function fieldNames(list: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let name = '';
  for (const char of `${list},`) {
    if (char === '{') depth += 1;
    else if (char === '}') depth -= 1;
    else if (depth === 0 && char === ',') {
      names.push(name.trim());
      name = '';
    } else if (depth === 0) name += char;
  }
  return names;
}

function checkParams(
  where: string,
  got: URLSearchParams,
  expected: Record<string, Expected>,
  section: string,
): void {
  expect([...new Set(got.keys())].sort(), `${section}: ${where} parameter names`).toEqual(
    Object.keys(expected).sort(),
  );
  for (const [name, want] of Object.entries(expected)) {
    const values = got.getAll(name);
    expect(values, `${section}: ${where} ${name} is sent once`).toHaveLength(1);
    if (typeof want === 'string') expect(values[0], `${section}: ${where} ${name}`).toBe(want);
    else
      expect(fieldNames(values[0] ?? ''), `${section}: ${where} ${name}`).toEqual(
        expect.arrayContaining(want),
      );
  }
}

/** Asserts that a received request is the one the fixture describes (method, path, query, form). */
export function expectRequest(received: Received, { section, request }: Exchange): void {
  expect(received.method, `${section}: method`).toBe(request.method);
  expect(received.path, `${section}: path`).toBe(request.path);
  if (request.form) {
    // Graph takes a POST's token, secrets and code in the form body, never in the URL.
    expect(received.contentType, `${section}: content type`).toMatch(/^application\/x-www-form-urlencoded/);
    expect([...received.query.keys()], `${section}: nothing in the URL`).toEqual([]);
    checkParams('form', new URLSearchParams(received.body), request.form, section);
  } else {
    expect(received.body, `${section}: no body`).toBe('');
    checkParams('query', received.query, request.query ?? {}, section);
  }
}

/** The exchange of `exchanges` a request is for: the one of its method and path, else the first. */
export function exchangeFor(
  request: Pick<Received, 'method' | 'path'>,
  exchanges: Exchange[],
): Exchange | null {
  return (
    exchanges.find((e) => e.request.method === request.method && e.request.path === request.path) ??
    exchanges[0] ??
    null
  );
}

/**
 * A stand-in for graph.threads.net on 127.0.0.1: answers each request with the response of the
 * served exchange of its method and path, and records what it received, so a test can assert the
 * requests the live client sent.
 */
export async function startFixtureServer(): Promise<{
  base: string;
  /** Answers with these exchanges until the next call; returns what was received meanwhile. */
  serve(...exchanges: Exchange[]): Received[];
  close(): Promise<void>;
}> {
  let current: Exchange[] = [];
  let received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fixture.invalid');
      const got: Received = {
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        contentType: request.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(got);
      const answer = exchangeFor(got, current)?.response ?? { status: 500, raw: 'no fixture is served' };
      const body = answer.raw ?? JSON.stringify(answer.json ?? null);
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    serve(...exchanges) {
      current = exchanges;
      received = [];
      return received;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
