import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { requestPath } from '../../http/request-path.ts';
import { chooseResponse, matchesETag } from './file-responses.ts';
import type { StaticFile } from './static-store.ts';

/** The file a decoded URL path names (never for /api), or undefined. */
export type FileLookup = (pathname: string) => StaticFile | undefined;

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

/**
 * Answers a GET or HEAD of a built file straight on Node's response, with the headers precomputed at
 * load (the same ones the Fastify route sends), skipping routing, hooks and per-request logging.
 * Returns false, having written nothing, for everything else: Fastify then handles it in full
 * (unknown paths and their 404 page, the API, other methods, malformed URLs).
 */
export function serveEarly(request: IncomingMessage, response: ServerResponse, lookup: FileLookup): boolean {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const pathname = decodedPath(request.url ?? '/');
  if (pathname === null || isApiPath(pathname)) return false;
  const file = lookup(pathname);
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
 * and keep-alive stay the server's. When `early` throws before writing, Fastify handles the request.
 */
export function installEarlyHandler(
  server: Server,
  early: (request: IncomingMessage, response: ServerResponse) => boolean,
  onError: (error: unknown) => void,
): void {
  const fastifyHandlers = server.listeners('request') as Handler[];
  if (fastifyHandlers.length !== 1) throw new Error('Expected exactly one request listener (Fastify).');
  const [fastify] = fastifyHandlers as [Handler];
  server.removeListener('request', fastify);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    try {
      if (early(request, response)) return;
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
