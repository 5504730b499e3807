import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { requestPath } from '../../http/request-path.ts';
import type { CatalogueAnswer, CatalogueRequest } from './disk-catalogue.ts';
import { chooseResponse, matchesETag } from './file-responses.ts';
import type { StaticFile } from './static-store.ts';

/** What the early path answers from: the built files in memory and the catalogue on disk. */
export interface EarlyFiles {
  /** The built file a decoded URL path names (never for /api or /data), or undefined. */
  find(pathname: string): StaticFile | undefined;
  catalogue: {
    /** Whether a decoded path may name a catalogue file (answered asynchronously). */
    accepts(pathname: string): boolean;
    answer(pathname: string, request: CatalogueRequest): Promise<CatalogueAnswer | undefined>;
  };
}

/** What the early path does when it took a request it then cannot answer: Fastify handles it. */
export type Fallback = (error?: unknown) => void;

/** The decoded path of a request URL, or null when it is malformed (Fastify answers that 400). */
export function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(requestPath(url));
  } catch {
    return null;
  }
}

/** Whether a decoded path belongs to the API: never answered with a file. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** Writes a catalogue answer on Node's response (the Fastify route sends the same one). */
export function writeCatalogueAnswer(
  response: ServerResponse,
  answer: CatalogueAnswer,
  onError: (error: unknown) => void,
): void {
  response.writeHead(answer.status, answer.headers);
  const body = answer.body;
  if (body === undefined || Buffer.isBuffer(body)) {
    response.end(body);
    return;
  }
  // A failed read after the headers went out can only cut the answer short (pipeline destroys both).
  pipeline(body, response, (error) => {
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') onError(error);
  });
}

/**
 * Answers a GET or HEAD of a built file straight on Node's response, with the headers precomputed at
 * load (the same ones the Fastify route sends), skipping routing, hooks and per-request logging; a
 * catalogue file (/data/*) the same way once it is read from disk. Returns false, having written
 * nothing, for everything else: Fastify then handles it in full (unknown paths and their 404 page,
 * the API, other methods, malformed URLs). A catalogue request it took and then finds missing goes
 * to `fallback`, which hands it to Fastify (its 404) unless something was written.
 */
export function serveEarly(
  request: IncomingMessage,
  response: ServerResponse,
  files: EarlyFiles,
  fallback: Fallback,
): boolean {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = decodedPath(request.url ?? '/');
  if (pathname === null || isApiPath(pathname)) return false;
  if (files.catalogue.accepts(pathname)) {
    files.catalogue
      .answer(pathname, {
        method,
        acceptEncoding: request.headers['accept-encoding'],
        ifNoneMatch: request.headers['if-none-match'],
      })
      .then((answer) => (answer ? writeCatalogueAnswer(response, answer, fallback) : fallback()))
      .catch(fallback);
    return true;
  }
  const file = files.find(pathname);
  if (!file) return false;
  const chosen = chooseResponse(file.responses, request.headers['accept-encoding']);
  if (matchesETag(request.headers['if-none-match'], chosen.etag)) {
    response.writeHead(304, chosen.notModified);
    response.end();
  } else {
    response.writeHead(200, chosen.headers);
    // Node leaves the body out of a HEAD answer itself, keeping Content-Length.
    response.end(method === 'HEAD' ? undefined : chosen.body);
  }
  return true;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Puts `early` in front of Fastify's own request listener on `server`: the connection cap, timeouts
 * and keep-alive stay the server's. When `early` throws before writing, or calls its fallback (it
 * took a request it then could not answer), Fastify handles the request; an error is reported to
 * `onError` first, and a response already under way is cut short instead.
 */
export function installEarlyHandler(
  server: Server,
  early: (request: IncomingMessage, response: ServerResponse, fallback: Fallback) => boolean,
  onError: (error: unknown) => void,
): void {
  const fastifyHandlers = server.listeners('request') as Handler[];
  if (fastifyHandlers.length !== 1) throw new Error('Expected exactly one request listener (Fastify).');
  const [fastify] = fastifyHandlers as [Handler];
  server.removeListener('request', fastify);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const fallback: Fallback = (error) => {
      if (error !== undefined) onError(error);
      if (response.headersSent) response.destroy();
      else if (!response.destroyed) fastify.call(server, request, response);
    };
    try {
      if (early(request, response, fallback)) return;
    } catch (error) {
      onError(error);
      if (response.headersSent) {
        response.destroy();
        return;
      }
    }
    fastify.call(server, request, response);
  });
}
