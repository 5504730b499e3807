/**
 * `npm run dev`: the Astro dev server on PORT (4321, hot reload) and our API server on API_PORT
 * (4322) together. The API runs with SERVE_SITE=false (no site build: Astro renders the pages) and
 * pretty logs; Astro proxies what only the API answers (/api, /data, /thread/, /social/ and the
 * simulated Threads pages; astro.config.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const port = process.env.PORT ?? '4321';
const apiPort = process.env.API_PORT ?? '4322';
const pagesUrl = `http://127.0.0.1:${port}`;
// The catalogue the API exports: the dev pages are rendered from it, as a build would be.
const catalogueDir = process.env.CATALOGUE_DIR ?? path.join(process.env.DATA_DIR ?? '.data', 'catalogue');
const children: ChildProcess[] = [];

function start(name: string, args: string[], env: Record<string, string>): void {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    console.log(`${name} exited (${code ?? signal}); stopping the other process.`);
    for (const other of children) other.kill('SIGTERM');
    process.exitCode = code ?? 1;
  });
  children.push(child);
}

start('API server', ['server/main.ts'], {
  PORT: apiPort,
  PUBLIC_URL: process.env.PUBLIC_URL ?? pagesUrl,
  SERVE_SITE: 'false',
  // Thread pages are filled from the dev server's own rendering of the template (hot reload too).
  DEV_PAGES_URL: pagesUrl,
  LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty',
  CATALOGUE_DIR: catalogueDir,
});
start('Astro dev server', ['node_modules/astro/bin/astro.mjs', 'dev', '--port', port], {
  API_PORT: apiPort,
  ASTRO_TELEMETRY_DISABLED: '1',
  CATALOGUE_DIR: catalogueDir,
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
