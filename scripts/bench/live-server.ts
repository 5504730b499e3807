/**
 * The live server of the API and approval steps: a fresh data folder on the committed sample, its
 * own site (built at start), signed-in users over HTTP. Started once, shared by both steps.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../server/config.ts';
import {
  PROJECT_ROOT,
  publishedProfilesFile,
  siteBuildOptionsFor,
  siteState,
  type SiteBuildOptions,
} from '../../server/publisher/build/build-site.ts';
import { tempDir, type Pinning } from './processes.ts';
import { startProductServer, type ProductServer } from './product-server.ts';

/** The approved member of the live server: the API step reads their public profile, Lighthouse their page. */
export const MEMBER = 'benchmember';

export interface LiveServer {
  server: ProductServer;
  /** The build options the server itself uses (siteBuildOptionsFor of its configuration). */
  build: SiteBuildOptions;
  profilesFile: string;
}

/** What starting the live server needs of a step's context (context.ts starts it on first use). */
export interface LiveServerContext {
  progress(message: string): void;
  port(name: 'product'): number;
  pinning: Pick<Pinning, 'serverCore'>;
}

/** The product server on a fresh database and the committed sample, for the API and approval steps. */
export async function startLiveServer(context: LiveServerContext): Promise<LiveServer> {
  // Its own initdb and migrations, in its own process: the first server of a run, it would otherwise
  // wait for the migrated copy (migrated-data.ts), made in the bench's process meanwhile.
  const dataDir = tempDir('live-data');
  const siteDir = path.join(tempDir('live-site'), 'dist');
  context.progress(
    'starting a server on a fresh database and the committed sample (it builds its site first)…',
  );
  const server = await startProductServer({
    port: context.port('product'),
    siteDir,
    dataDir,
    sampleDir: path.join(PROJECT_ROOT, 'data'),
    core: context.pinning.serverCore,
  });
  context.progress(`the server answered after ${(server.startMs / 1000).toFixed(0)} s`);
  return asLive(server);
}

/** A running product server with the site options it builds with (to wait until it published). */
export function asLive(server: ProductServer): LiveServer {
  // The server's own configuration, so these options cannot drift from the ones its builds use.
  const config = loadConfig(server.env, PROJECT_ROOT);
  return { server, build: siteBuildOptionsFor(config), profilesFile: publishedProfilesFile(config) };
}

/**
 * Waits until `ready()` holds and then until the server's site matches its data (the background
 * export and rebuild after a change are over), so that no build runs under a measurement.
 */
export async function waitUntilPublished(
  live: LiveServer,
  ready: () => Promise<boolean>,
  what: string,
  timeoutMs = 5 * 60_000,
): Promise<void> {
  const started = performance.now();
  while (!(await ready()) || (await siteState(live.build)).reason !== null) {
    if (performance.now() - started > timeoutMs)
      throw new Error(`${what} was not published in ${timeoutMs / 1000} s`);
    await sleep(500);
  }
  // Loading and compressing the new build comes after its stamp: wait until the server is idle.
  await live.server.settle();
}

/** Whether the exported profiles (what the build pre-renders) include `username`. */
export async function profileExported(live: LiveServer, username: string): Promise<boolean> {
  const text = await readFile(live.profilesFile, 'utf8').catch(() => '');
  return text.includes(`"${username}"`);
}
