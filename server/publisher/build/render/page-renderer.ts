import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { RenderReply, RenderRequest } from './render-messages.ts';

/** How long a renderer process (about 170 MB) waits for its next pass before it exits: a review session reuses it. */
export const RENDERER_IDLE_MS = 5 * 60_000;

const WORKER = path.join(import.meta.dirname, 'render-worker.ts');

interface Renderer {
  /** The bundle's server entry. */
  entry: string;
  child: ChildProcess;
  /** Settles when the process has loaded the bundle; rejects when it exits first. */
  ready: Promise<void>;
  /** Sends one request and settles with its reply; rejects when the process exits first. */
  ask(request: RenderRequest): Promise<RenderReply>;
  /** Passes run one at a time. */
  queue: Promise<unknown>;
  idle?: NodeJS.Timeout | undefined;
}

/** The live renderer processes, one per bundle and environment (several sites may render in one process). */
const running = new Map<string, Renderer>();

function start(key: string, entry: string, env: Record<string, string>): Renderer {
  const child = fork(WORKER, [entry], {
    // The server's flags (a test runner's loaders, a heap cap) are not the renderer's.
    execArgv: [],
    // The whole environment, as the build's (site-options.ts childEnv): not ours with it laid over.
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let loaded: { resolve: () => void; reject: (error: Error) => void } | null = null;
  let pending: { resolve: (reply: RenderReply) => void; reject: (error: Error) => void } | null = null;
  const ready = new Promise<void>((resolve, reject) => (loaded = { resolve, reject }));
  // Nobody may be waiting when the process fails to start: that rejection surfaces in the next pass.
  ready.catch(() => {});
  const renderer: Renderer = {
    entry,
    child,
    ready,
    ask: (request) =>
      new Promise<RenderReply>((resolve, reject) => {
        pending = { resolve, reject };
        child.send(request);
      }),
    queue: Promise.resolve(),
  };
  child.on('message', (reply: RenderReply) => {
    if ('ready' in reply) return loaded?.resolve();
    const waiting = pending;
    pending = null;
    waiting?.resolve(reply);
  });
  const fail = (error: Error) => {
    loaded?.reject(error);
    pending?.reject(error);
    pending = null;
  };
  child.on('exit', (code, signal) => {
    if (running.get(key) === renderer) running.delete(key);
    clearTimeout(renderer.idle);
    fail(new Error(`The renderer process exited (${signal ?? `code ${code}`})`));
  });
  child.on('error', fail);
  return renderer;
}

/** Keeps the process for RENDERER_IDLE_MS without holding the server open meanwhile. */
function rest(renderer: Renderer): void {
  clearTimeout(renderer.idle);
  renderer.idle = setTimeout(() => renderer.child.kill(), RENDERER_IDLE_MS).unref();
  renderer.child.channel?.unref();
  renderer.child.unref();
}

/**
 * Renders every page the data decides (the pages marked `prerender = false`) into `siteDir`, through
 * the renderer bundle at `entry` in a process whose whole environment is `env`, and returns the files
 * it wrote. The process stays five minutes for the next pass: a pass then costs the renders, not a start.
 */
export async function renderDataPages({
  entry,
  env,
  siteDir,
  origin,
}: {
  entry: string;
  env: Record<string, string>;
} & RenderRequest): Promise<string[]> {
  const key = JSON.stringify([entry, env]);
  let renderer = running.get(key);
  if (!renderer) running.set(key, (renderer = start(key, entry, env)));
  const pass = renderer.queue.then(async () => {
    clearTimeout(renderer.idle);
    renderer.child.ref();
    renderer.child.channel?.ref();
    try {
      await renderer.ready;
      const reply = await renderer.ask({ siteDir, origin });
      if ('error' in reply) throw new Error(`Rendering the site's pages failed: ${reply.error}`);
      if (!('files' in reply)) throw new Error('The renderer process answered out of turn');
      return reply.files;
    } finally {
      rest(renderer);
    }
  });
  renderer.queue = pass.catch(() => {});
  return pass;
}

/**
 * Stops the renderer processes of the bundles under `folder` (a site's renderers) but `keep`'s: a
 * build replaced them, and an idle one would otherwise hold its memory for RENDERER_IDLE_MS.
 */
export function stopRenderersUnder(folder: string, keep: string): void {
  const inside = (entry: string, dir: string) => entry.startsWith(`${path.resolve(dir)}${path.sep}`);
  for (const [key, renderer] of running) {
    if (!inside(renderer.entry, folder) || inside(renderer.entry, keep)) continue;
    running.delete(key);
    renderer.child.kill();
  }
}

/** The bundles whose renderer processes are running (for tests). */
export function runningRenderers(): string[] {
  return [...running.values()].map((renderer) => renderer.entry);
}
