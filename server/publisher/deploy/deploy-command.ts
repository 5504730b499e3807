import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { DeployLog } from './deploy-hook.ts';

/** A deploy that runs longer than this is stuck: it is killed, so the next one can start. */
export const DEPLOY_COMMAND_TIMEOUT_MS = 30 * 60_000;
/** After SIGTERM, how long the command's processes get before SIGKILL. */
const KILL_GRACE_MS = 3_000;

export interface DeployCommandOptions {
  log: DeployLog;
  /** Where it runs (the project root in the server). */
  cwd: string;
  /** Its whole environment. */
  env: NodeJS.ProcessEnv;
  /** Aborted on shutdown: the command's processes are killed. */
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** Signals the command's whole process group (the shell and what it started), then kills it. */
function stopGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  const send = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  };
  send('SIGTERM');
  setTimeout(() => send('SIGKILL'), KILL_GRACE_MS).unref();
}

/**
 * Runs `command` through `/bin/sh -c` (so `npm run build && npx wrangler pages deploy dist` works),
 * logging each line of its output at info. A non-zero exit, a signal, a spawn failure or running
 * past the timeout is logged as an error. The command text itself is never logged: it may carry a
 * token. Returns true when it exited with 0.
 */
export async function runDeployCommand(
  command: string,
  { log, cwd, env, signal, timeoutMs = DEPLOY_COMMAND_TIMEOUT_MS }: DeployCommandOptions,
): Promise<boolean> {
  if (signal?.aborted) return false;
  log.info({}, 'Running DEPLOY_COMMAND...');
  // Its own process group, so a stop reaches npm's and the shell's children too.
  const child = spawn('/bin/sh', ['-c', command], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const [stream, name] of [
    [child.stdout, 'stdout'],
    [child.stderr, 'stderr'],
  ] as const) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
      log.info({ stream: name }, `DEPLOY_COMMAND: ${line}`),
    );
  }
  let stoppedBecause: string | null = null;
  const stop = (reason: string) => {
    stoppedBecause ??= reason;
    stopGroup(child.pid);
  };
  const timer = setTimeout(() => stop(`it ran longer than ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
  const onAbort = () => stop('the server is shutting down');
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>(
      (resolve) => {
        child.on('error', resolve);
        child.on('close', (code, exitSignal) => resolve({ code, signal: exitSignal }));
      },
    );
    if (outcome instanceof Error) {
      log.error({ failure: outcome.message }, 'DEPLOY_COMMAND could not be started.');
      return false;
    }
    if (stoppedBecause) {
      log.error(
        { code: outcome.code, signal: outcome.signal },
        `DEPLOY_COMMAND was stopped: ${stoppedBecause}.`,
      );
      return false;
    }
    if (outcome.code !== 0) {
      const how = outcome.code === null ? `signal ${outcome.signal}` : `exit code ${outcome.code}`;
      log.error({ code: outcome.code, signal: outcome.signal }, `DEPLOY_COMMAND failed (${how}).`);
      return false;
    }
    log.info({}, 'DEPLOY_COMMAND finished.');
    return true;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
