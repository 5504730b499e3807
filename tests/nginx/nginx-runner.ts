import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Debian's nginx (nginx-light has gzip_static); the tests run it as the current user. */
export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** Why the nginx tests cannot run, or null when nginx is there. */
export function nginxMissingMessage(): string | null {
  if (existsSync(NGINX_PATH)) return null;
  return `nginx is missing at ${NGINX_PATH}: install it with "sudo apt-get install -y nginx-light" (or set NGINX_PATH); the nginx-fronted browser tests need it.`;
}

/**
 * nginx started as root hands its workers to `nobody`, who cannot read a checkout in a private folder
 * (CI clones into a 0700 `mktemp -d`: every file answered 403). As root, the workers stay root; as
 * any other user nginx cannot switch and the line would only warn, so it is left out.
 */
export function workerUserLines(uid = process.getuid?.()): string[] {
  return uid === 0 ? ['user root;'] : [];
}

/**
 * A minimal nginx.conf around one generated server block, for a non-root nginx: pid, temp folders
 * and logs under `prefix`, errors to stderr, no access log.
 */
export function wrapServerBlock(prefix: string, serverBlockFile: string): string {
  const temp = (name: string) => path.join(prefix, 'temp', name);
  return [
    ...workerUserLines(),
    'worker_processes 1;',
    `pid ${path.join(prefix, 'nginx.pid')};`,
    'error_log stderr warn;',
    'events { worker_connections 512; }',
    'http {',
    '    include /etc/nginx/mime.types;',
    '    default_type application/octet-stream;',
    '    access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (name) => `    ${name}_temp_path ${temp(name)};`,
    ),
    `    include ${serverBlockFile};`,
    '}',
    '',
  ].join('\n');
}

/** Writes the wrapping config under `prefix` and returns its path. */
export async function writeNginxConfig(prefix: string, serverBlockFile: string): Promise<string> {
  await mkdir(path.join(prefix, 'temp'), { recursive: true });
  const file = path.join(prefix, 'nginx.conf');
  await writeFile(file, wrapServerBlock(prefix, serverBlockFile));
  return file;
}

/** nginx's arguments for a config under `prefix`: in the foreground, never as a daemon. */
export function nginxArgs(prefix: string, configFile: string, extra: string[] = []): string[] {
  return ['-p', prefix, '-c', configFile, '-e', 'stderr', '-g', 'daemon off;', ...extra];
}

/** Starts nginx in the foreground with its output passed through. */
export function startNginx(prefix: string, configFile: string): ChildProcess {
  return spawn(NGINX_PATH, nginxArgs(prefix, configFile), { stdio: 'inherit' });
}

/** Polls `url` every 250 ms until it answers 2xx; false once `timeoutMs` has passed without. */
export async function waitUntilOk(url: string, timeoutMs: number): Promise<boolean> {
  for (let waited = 0; waited <= timeoutMs; waited += 250) {
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/**
 * Waits until a server at `origin` is healthy and serves its site: a first start answers pages 503
 * while it builds the site in the background (decision 038), and the nginx block is written by that
 * build. False once `timeoutMs` has passed without.
 */
export async function waitUntilServed(origin: string, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  if (!(await waitUntilOk(`${origin}/api/health`, timeoutMs))) return false;
  return waitUntilOk(`${origin}/`, Math.max(0, timeoutMs - (Date.now() - started)));
}

/**
 * Children that live and die together: `stopAll(code)` ends every one and this process; SIGTERM
 * and SIGINT (Playwright stopping its web server) end them too.
 */
export function childGroup(): { children: ChildProcess[]; stopAll(code: number): never } {
  const children: ChildProcess[] = [];
  const stopAll = (code: number): never => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(code);
  };
  process.on('SIGTERM', () => stopAll(0));
  process.on('SIGINT', () => stopAll(0));
  return { children, stopAll };
}
