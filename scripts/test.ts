/**
 * `npm test`: everything, in order: make sure Chromium is there, build the site under test,
 * then unit and integration tests (Vitest) and the browser tests (Playwright). Never skips a part.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

ensureChromium();

console.log('\n▶ Site under test');
await ensureTestSite();

// The tools run on this same Node (24), whatever `node` the shell would find.
run('Unit and integration tests (Vitest)', process.execPath, ['node_modules/vitest/vitest.mjs', 'run']);
run('Browser tests (Playwright, Chromium)', process.execPath, [
  'node_modules/@playwright/test/cli.js',
  'test',
]);
console.log('\n✓ All tests passed.');
