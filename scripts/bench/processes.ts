/**
 * Every process and temp folder `npm run bench` starts, so that all of them end with it (also on
 * Ctrl-C), and the CPU pinning: servers on one core, the load generator on the other.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** Where servers and the load generator run: pinned with taskset when it exists and there are 2+ cores. */
export interface Pinning {
  serverCore: number | null;
  loadCore: number | null;
  description: string;
}

export function detectPinning(): Pinning {
  const taskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  if (!taskset || cpus().length < 2)
    return {
      serverCore: null,
      loadCore: null,
      description: `not pinned (${taskset ? 'one core' : 'no taskset'}): servers and load share the cores`,
    };
  return {
    serverCore: 0,
    loadCore: 1,
    description:
      'taskset: each server under test and its reference on core 0 (one after the other, never at once), the load generator on core 1',
  };
}

export interface Tracked {
  child: ChildProcess;
  /** Everything it printed so far (the last 20,000 characters). */
  output(): string;
  /** SIGTERM to its process group, SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!running(child) || child.pid === undefined) return;
  try {
    // Its own process group: nginx's worker, Chromium's helpers and Astro end with their parent.
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/**
 * Starts `command args` in a process group of its own, on `core` when given (taskset), tracked so
 * that `stopAll` ends it.
 */
export function startTracked(
  command: string,
  args: readonly string[],
  { env = process.env, core = null }: { env?: NodeJS.ProcessEnv; core?: number | null } = {},
): Tracked {
  const [file, argv] =
    core === null ? [command, [...args]] : ['taskset', ['-c', String(core), command, ...args]];
  const child = spawn(file, argv, {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // once() rejects on 'error' (could not spawn): then there is nothing to wait for.
  const exited = once(child, 'exit').catch(() => undefined);
  void exited.then(() => children.delete(child));
  return {
    child,
    output: () => output,
    async stop(graceMs = 10_000) {
      if (!running(child)) return;
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs `node args` with the project's Node (on `core` when given) to its end; returns its stdout.
 * A run longer than `timeoutMs` is stopped (and then fails: its exit code is not 0).
 */
export async function runNode(
  args: readonly string[],
  core: number | null = null,
  timeoutMs = 2 * 60 * 60_000,
): Promise<string> {
  const tracked = startTracked(process.execPath, args, { core });
  let stdout = '';
  tracked.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const timer = setTimeout(() => void tracked.stop(), timeoutMs);
  const [code] = (await once(tracked.child, 'exit')) as [number | null];
  clearTimeout(timer);
  if (code !== 0)
    throw new Error(`node ${args.join(' ')} exited with ${code}:\n${tracked.output().slice(-2000)}`);
  return stdout;
}

/** A fresh folder under test-output/bench/run-<pid>/, removed by `stopAll`. */
export function tempDir(name: string): string {
  const root = path.join(PROJECT_ROOT, 'test-output', 'bench', `run-${process.pid}`);
  tempDirs.add(root);
  const dir = path.join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Kills every tracked process group and removes the temp folders (synchronous: safe in 'exit'). */
export function stopAll(): void {
  for (const child of children) killGroup(child, 'SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}
