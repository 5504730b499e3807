/**
 * `npm run dev`: the Astro dev server on PORT (4321, hot reload) and our API server on API_PORT
 * (4322) together; Astro proxies /api and /data to the API (astro.config.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';

const port = process.env.PORT ?? '4321';
const apiPort = process.env.API_PORT ?? '4322';
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
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`,
});
start('Astro dev server', ['node_modules/astro/bin/astro.mjs', 'dev', '--port', port], {
  API_PORT: apiPort,
  ASTRO_TELEMETRY_DISABLED: '1',
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
