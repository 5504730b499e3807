/**
 * How the admin CLI asks a running server for a backup of the embedded database (decision 050), or
 * to export and publish the site now. PGlite is one process: only the server holding DATA_DIR can
 * read it consistently. The server
 * listens on a Unix socket inside DATA_DIR (`run/control.sock`, in a 0700 folder), so whoever can
 * use it can already read the data folder: the file system is the authentication, and nothing
 * is reachable over the network.
 */
import { chmod, mkdir, unlink } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { BackupResult } from './back-up.ts';

/** The socket's path for a data folder. */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'run', 'control.sock');
}

/** The server could not be asked (no socket: an older server, or a path too long for a socket). */
export class ControlSocketUnavailable extends Error {
  override name = 'ControlSocketUnavailable';
}

/** What `publish` did: whether this server publishes (SERVE_SITE and a publishing role) and is done. */
export interface PublishResult {
  published: boolean;
}

export interface ControlHandlers {
  backup(): Promise<BackupResult>;
  publish(): Promise<PublishResult>;
}

export interface ControlSocket {
  path: string;
  close(): Promise<void>;
}

function answer(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Listens on the data folder's control socket. The caller holds the pid lock, so a socket file
 * already there was left by a dead server and is replaced. `POST /backup` takes a backup now.
 */
export async function openControlSocket(dataDir: string, handlers: ControlHandlers): Promise<ControlSocket> {
  const file = controlSocketPath(dataDir);
  const folder = path.dirname(file);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // mkdir keeps an existing folder's mode: make sure nobody else can reach the socket.
  await chmod(folder, 0o700);
  await unlink(file).catch(() => {});
  const server = http.createServer((request, response) => {
    const handler =
      request.method !== 'POST'
        ? undefined
        : request.url === '/backup'
          ? handlers.backup
          : request.url === '/publish'
            ? handlers.publish
            : undefined;
    if (!handler) {
      answer(response, 404, { detail: 'Not found.' });
      return;
    }
    handler().then(
      (result) => answer(response, 200, result),
      (error: unknown) => answer(response, 500, { detail: (error as Error).message }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => unlink(file).catch(() => {})),
  };
}

/** Asks the server holding `dataDir` for a backup now; resolves with what it took. */
export function requestBackup(dataDir: string): Promise<BackupResult> {
  return ask<BackupResult>(
    dataDir,
    '/backup',
    'take the backup',
    'stop it and run the backup again (the CLI then opens the database itself)',
  );
}

/** Asks the server holding `dataDir` to export the catalogue and publish the site now. */
export function requestPublish(dataDir: string): Promise<PublishResult> {
  return ask<PublishResult>(
    dataDir,
    '/publish',
    'publish the site',
    'restart it (a server older than this command has no socket)',
  );
}

/** POSTs `route` on the control socket; `unavailable` says what to do when nothing answers there. */
function ask<T>(dataDir: string, route: string, what: string, unavailable: string): Promise<T> {
  const socketPath = controlSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, method: 'POST', path: route }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        try {
          const parsed = JSON.parse(body) as T & { detail?: string };
          if (response.statusCode === 200) resolve(parsed);
          else reject(new Error(`The running server could not ${what}: ${parsed.detail ?? body}`));
        } catch {
          reject(new Error(`The running server answered ${response.statusCode} without a result.`));
        }
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        ['ENOENT', 'ECONNREFUSED', 'EACCES'].includes(error.code ?? '')
          ? new ControlSocketUnavailable(
              `The running server does not answer on ${socketPath} (${error.code}): ${unavailable}.`,
            )
          : error,
      );
    });
    request.end();
  });
}
