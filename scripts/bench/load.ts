/** Load runs with autocannon (its CLI, so that it can run pinned to the load core): req/s, p99, errors. */
import { request } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { runNode } from './processes.ts';
import type { LoadResult } from './results.ts';

const CONNECTIONS = 50;
const AUTOCANNON_CLI = path.join(
  path.dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);

export interface LoadSettings {
  seconds: number;
  /** The load generator's core (null: not pinned). */
  core: number | null;
  headers?: Record<string, string>;
  /** False: no warm-up run (the smoke run checks the code path, not the figure). */
  warmUp?: boolean;
}

/** What autocannon's --json prints (the fields read here). */
interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** One request as the load sends it: the encoding and size of the body it gets back. */
export function probe(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; encoding: string; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (response) => {
      let bodyBytes = 0;
      response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          encoding: String(response.headers['content-encoding'] ?? 'identity'),
          bodyBytes,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function autocannon(url: string, seconds: number, settings: LoadSettings): Promise<AutocannonJson> {
  const headerArgs = Object.entries(settings.headers ?? {}).flatMap(([name, value]) => [
    '-H',
    `${name}=${value}`,
  ]);
  const stdout = await runNode(
    [AUTOCANNON_CLI, '-c', String(CONNECTIONS), '-d', String(seconds), '-j', ...headerArgs, url],
    settings.core,
  );
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as AutocannonJson;
}

/**
 * Warms the server up (a third of the time, at least 2 s, not counted; unless `warmUp` is false),
 * then loads it with 50
 * connections for `seconds`. A probe request first must answer 200, or the run would measure errors.
 */
export async function measureLoad(url: string, settings: LoadSettings): Promise<LoadResult> {
  const answer = await probe(url, settings.headers);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}, not 200`);
  if (settings.warmUp !== false)
    await autocannon(url, Math.max(2, Math.round(settings.seconds / 3)), settings);
  const run = await autocannon(url, settings.seconds, settings);
  return {
    url,
    requestsPerSec: run.requests.average,
    p99Ms: run.latency.p99,
    errors: run.errors + run.timeouts + run.non2xx,
    requests: run.requests.total,
    encoding: answer.encoding,
    bodyBytes: answer.bodyBytes,
  };
}
