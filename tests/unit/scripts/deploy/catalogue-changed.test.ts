import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkCatalogue, manifestState } from '../../../../scripts/deploy/catalogue-changed.ts';

const SCRIPT = path.resolve(import.meta.dirname, '../../../../scripts/catalogue-changed.ts');
const run = promisify(execFile);

let work: string;
let server: Server;
let catalogueUrl: string;
/** What the fake server answers at /data/manifest.json. */
let served: { status: number; body: string };

const manifest = (generatedAt: string, version?: string) =>
  JSON.stringify({ generatedAt, nextUpdate: generatedAt, ...(version ? { version } : {}) });

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ct-catalogue-changed-'));
  server = createServer((request, response) => {
    const found = request.url === '/data/manifest.json';
    response.writeHead(found ? served.status : 404, { 'content-type': 'application/json' });
    response.end(found ? served.body : '{}');
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  catalogueUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/data`;
});

afterAll(async () => {
  server.close();
  await rm(work, { recursive: true, force: true });
});

describe('checkCatalogue', () => {
  test('no state yet counts as changed; the same manifest then does not; a new date or version does', async () => {
    const state = path.join(work, 'nested', 'state.json');
    const first = manifestState(manifest('2026-11-23T10:00:00.000Z', 'aaaa'));
    expect(await checkCatalogue(first, state)).toMatchObject({ changed: true, previous: null });
    expect(await checkCatalogue(first, state)).toMatchObject({ changed: false });
    // An approval changes the cards (the version) without moving generatedAt.
    const approved = { ...first, version: 'bbbb' };
    expect(await checkCatalogue(approved, state)).toMatchObject({ changed: true, previous: first });
    const refreshed = { ...approved, generatedAt: '2026-11-23T11:00:00.000Z' };
    expect(await checkCatalogue(refreshed, state)).toMatchObject({ changed: true, previous: approved });
    expect(JSON.parse(await readFile(state, 'utf8'))).toEqual(refreshed);
    // An approval laid in front of the full export (the tail) moves only the head.
    const tailed = { ...refreshed, head: 'cccc' };
    expect(await checkCatalogue(tailed, state)).toMatchObject({ changed: true, previous: refreshed });
    expect(await checkCatalogue(tailed, state)).toMatchObject({ changed: false });
  });

  test('an unreadable state file counts as changed', async () => {
    const state = path.join(work, 'broken.json');
    await writeFile(state, 'not json');
    const current = manifestState(manifest('2026-11-23T10:00:00.000Z'));
    expect(await checkCatalogue(current, state)).toMatchObject({ changed: true, previous: null });
  });

  test('a manifest without a valid generatedAt is refused', () => {
    expect(() => manifestState('{"version":"x"}')).toThrow(/generatedAt/);
    expect(() => manifestState('{"generatedAt":"yesterday"}')).toThrow(/generatedAt/);
    expect(() => manifestState('<html>')).toThrow();
  });
});

// Each test starts the script as a process (one to four times): bounds for a loaded machine, not
// the unit tests' 5 s.
describe('scripts/catalogue-changed.ts', { timeout: 60_000 }, () => {
  const cli = async (env: Record<string, string>, args: string[] = []) =>
    run(process.execPath, [SCRIPT, ...args], { env: { ...process.env, ...env } }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  test('prints changed=true, then changed=false, and writes $GITHUB_OUTPUT', async () => {
    const state = path.join(work, 'cli-state.json');
    const output = path.join(work, 'github-output');
    served = { status: 200, body: manifest('2026-11-23T10:00:00.000Z', 'cccc') };
    const env = { CATALOGUE_URL: catalogueUrl, GITHUB_OUTPUT: output };
    expect(await cli(env, ['--state', state])).toEqual({ code: 0, stdout: 'changed=true\n' });
    expect(await cli(env, ['--state', state])).toEqual({ code: 0, stdout: 'changed=false\n' });
    expect(await readFile(output, 'utf8')).toBe('changed=true\nchanged=false\n');
  });

  test('exits 1 when the manifest cannot be fetched or read, 2 on bad usage', async () => {
    const state = path.join(work, 'cli-error-state.json');
    served = { status: 503, body: '{}' };
    expect((await cli({ CATALOGUE_URL: catalogueUrl }, ['--state', state])).code).toBe(1);
    served = { status: 200, body: '{"nothing":true}' };
    expect((await cli({ CATALOGUE_URL: catalogueUrl }, ['--state', state])).code).toBe(1);
    expect((await cli({ CATALOGUE_URL: '' }, ['--state', state])).code).toBe(2);
    expect((await cli({ CATALOGUE_URL: catalogueUrl }, ['--bogus'])).code).toBe(2);
  });
});
