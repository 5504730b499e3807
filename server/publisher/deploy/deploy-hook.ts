import { setTimeout as sleep } from 'node:timers/promises';
import { VERSION } from '../../version.ts';
import {
  DEFAULT_RETRY_POLICY,
  nextRetryDelay,
  parseRetryAfter,
  type AttemptResult,
  type RetryPolicy,
} from './deploy-retry.ts';

/** The logger the deploy triggers write to (pino's, in the server). */
export interface DeployLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What the hook is told: hosts ignore the body, but a build or a receiver of our own may read it. */
export interface DeployHookBody {
  /** The catalogue's content version (a hash of its cards, as in manifest.json). */
  version: string | null;
  generatedAt: string | null;
}

export interface DeployHookOptions {
  log: DeployLog;
  /** Aborted on shutdown: the running attempt is abandoned and no further one starts. */
  signal?: AbortSignal | undefined;
  policy?: RetryPolicy | undefined;
  /** Waits between attempts (tests pass one that does not sleep). */
  wait?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
}

const realWait = (ms: number, signal: AbortSignal | undefined) =>
  sleep(ms, undefined, signal ? { signal } : {});

/** A failure described without the URL: Node's errors can quote it, and its path is the secret. */
function describe(result: AttemptResult): string {
  if (result.kind === 'status') return `HTTP ${result.status}`;
  return result.kind === 'timeout' ? 'no answer in time' : 'network error';
}

/** One POST; any answer counts (its body is discarded), no answer is a network error or a timeout. */
async function attempt(
  url: URL,
  body: string,
  timeoutMs: number,
  shutdown: AbortSignal | undefined,
): Promise<AttemptResult & { code?: string }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': `curated-threads/${VERSION}` },
      body,
      // A redirect would carry the POST (and nothing else we know) to another address: it is final.
      redirect: 'manual',
      signal: shutdown ? AbortSignal.any([timeout, shutdown]) : timeout,
    });
    await response.body?.cancel();
    return {
      kind: 'status',
      status: response.status,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    };
  } catch (error) {
    if (timeout.aborted) return { kind: 'timeout' };
    const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
    return { kind: 'network', ...(typeof code === 'string' ? { code } : {}) };
  }
}

/**
 * POSTs `body` as JSON to the deploy hook (a Netlify/Vercel/Cloudflare build hook), retrying no
 * answer, timeouts, 408, 429 and 5xx with backoff (deploy-retry.ts), never other answers. The URL
 * carries the host's token, so only its host is ever logged. Returns true once a 2xx answered.
 */
export async function callDeployHook(
  url: URL,
  payload: DeployHookBody,
  { log, signal, policy = DEFAULT_RETRY_POLICY, wait = realWait }: DeployHookOptions,
): Promise<boolean> {
  const host = url.host;
  const body = JSON.stringify(payload);
  const started = Date.now();
  for (let number = 1; ; number++) {
    if (signal?.aborted) return false;
    const result = await attempt(url, body, policy.attemptTimeoutMs, signal);
    if (result.kind === 'status' && result.status >= 200 && result.status < 300) {
      log.info({ host, status: result.status, attempt: number }, 'The deploy hook accepted the rebuild.');
      return true;
    }
    if (signal?.aborted) {
      log.warn({ host }, 'The deploy hook call was abandoned: the server is shutting down.');
      return false;
    }
    const failure = {
      host,
      attempt: number,
      failure: describe(result),
      ...('code' in result ? { code: result.code } : {}),
    };
    const delay = nextRetryDelay(result, { attempt: number, elapsedMs: Date.now() - started }, policy);
    if (delay === null) {
      log.error(failure, 'The deploy hook failed; it is tried again at the next publish.');
      return false;
    }
    log.warn({ ...failure, retryInMs: delay }, 'The deploy hook failed; retrying.');
    try {
      await wait(delay, signal);
    } catch {
      return false; // aborted: shutting down
    }
  }
}
