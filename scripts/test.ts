/**
 * `npm test`: everything, in order: make sure Chromium and nginx are there, build the site under test,
 * then unit and integration tests (Vitest) and the browser tests (Playwright). Never skips a part.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { NGINX_PATH } from '../tests/nginx/nginx-runner.ts';
import { ensureTestSite } from '../tests/site-under-test.ts';
import { CHROMIUM_PATH } from './chromium.ts';

function run(title: string, command: string, args: string[]): void {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✗ ${title} failed.`);
    process.exit(result.status ?? 1);
  }
}

function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing at ${CHROMIUM_PATH}: install it with "sudo apt-get install -y chromium" (or set CHROMIUM_PATH), then run npm test again.`,
    );
    process.exit(1);
  }
  console.log(
    `Chromium is missing at ${CHROMIUM_PATH}: installing Debian's chromium package with apt-get (running as root)...`,
  );
  run('apt-get update', 'apt-get', ['update', '-q']);
  run('apt-get install chromium', 'apt-get', ['install', '-y', '-q', 'chromium']);
}

/** The nginx-fronted browser tests run Debian's nginx: installed like Chromium when missing. */
function ensureNginx(): void {
  if (existsSync(NGINX_PATH)) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `nginx is missing at ${NGINX_PATH} (the nginx-fronted browser tests run it): install it with "sudo apt-get install -y nginx-light" (or set NGINX_PATH), then run npm test again.`,
    );
    process.exit(1);
  }
  console.log(
    `nginx is missing at ${NGINX_PATH}: installing Debian's nginx-light package with apt-get (running as root)...`,
  );
  run('apt-get update', 'apt-get', ['update', '-q']);
  run('apt-get install nginx-light', 'apt-get', ['install', '-y', '-q', 'nginx-light']);
}

ensureChromium();
ensureNginx();

console.log('\n▶ Site under test');
await ensureTestSite();

// The tools run on this same Node (24), whatever `node` the shell would find.
run('Unit and integration tests (Vitest)', process.execPath, ['node_modules/vitest/vitest.mjs', 'run']);
run('Browser tests (Playwright, Chromium)', process.execPath, [
  'node_modules/@playwright/test/cli.js',
  'test',
]);
console.log('\n✓ All tests passed.');
