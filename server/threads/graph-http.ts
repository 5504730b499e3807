import { redactSecrets, ThreadsApiError, type TokenGrant } from './gateway.ts';
import {
  DEFAULT_RETRY,
  errorKind,
  withRetry,
  type GraphErrorBody,
  type RetryOptions,
} from './graph-errors.ts';

export interface GraphHttpOptions {
  /** graph.threads.net, or the simulated provider; a function when the address is known only after listen. */
  graphBaseUrl: string | (() => string);
  timeoutMs?: number;
  /** How often a throttled or unavailable call is tried, and the first wait (tests use a few ms). */
  retry?: RetryOptions;
}

/**
 * Reads the numeric `"user_id"` of a raw JSON body as a string: JSON.parse would round a 17-digit
 * Threads id to the nearest double.
 */
export function rawUserId(body: string): string | null {
  return /"user_id"\s*:\s*"?(\d+)"?/.exec(body)?.[1] ?? null;
}

/** A POST with form fields, as Graph takes them; the token goes in the body, never in the URL. */
export function form(accessToken: string, fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, access_token: accessToken }),
  };
}

/** Meta's trace id when it has the opaque shape Meta gives it: only that reaches a log line. */
function traceIdOf(trace: unknown): string | null {
  return typeof trace === 'string' && /^[\w+/=-]{1,64}$/.test(trace) ? trace : null;
}

/**
 * How the live client talks to Graph (threads-api.md section 7): one call with a timeout and
 * retries, a refusal turned into a ThreadsApiError of the right kind, and answers read safely.
 */
export function createGraphHttp(options: GraphHttpOptions) {
  const base = () =>
    typeof options.graphBaseUrl === 'function' ? options.graphBaseUrl() : options.graphBaseUrl;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retry = options.retry ?? DEFAULT_RETRY;

  /**
   * One Graph call, tried again with backoff while Threads throttles or is unavailable; after the
   * last try the error keeps its kind. `once` calls (publishing a container) are never repeated
   * blindly: the publish flow asks the container's status instead.
   */
  async function call(path: string, init: RequestInit = {}, { once = false } = {}): Promise<string> {
    return withRetry(() => callOnce(path, init), once ? { ...retry, attempts: 1 } : retry);
  }

  async function callOnce(path: string, init: RequestInit): Promise<string> {
    let response: Response;
    try {
      response = await fetch(`${base()}${path}`, {
        ...init,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : 'unreachable';
      throw new ThreadsApiError(`Threads is ${reason}.`, 'unavailable', null);
    }
    const text = await response.text();
    if (response.ok) return text;
    let body: GraphErrorBody = {};
    try {
      body = JSON.parse(text) as GraphErrorBody;
    } catch {
      // Not JSON (a proxy's error page): the status is all we know.
    }
    const said = redactSecrets(body.error?.message ?? body.error_message ?? `HTTP ${response.status}`);
    const code = body.error?.code === undefined ? '' : ` (code ${body.error.code})`;
    const trace = body.error?.fbtrace_id;
    throw new ThreadsApiError(
      `Threads refused the request: ${said}${code}`,
      errorKind(response.status, body),
      response.status,
      body.error?.error_subcode ?? null,
      { code: body.error?.code ?? null, fbtraceId: traceIdOf(trace) },
    );
  }

  function json(text: string, what: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new ThreadsApiError(`Threads sent an unexpected ${what} answer.`, 'unavailable', 200);
    }
  }

  function parse<T>(text: string, check: (value: Partial<T>) => boolean, what: string): T {
    const value = json(text, what) as Partial<T> | null;
    if (!value || !check(value))
      throw new ThreadsApiError(`Threads sent an unexpected ${what} answer.`, 'unavailable', 200);
    return value as T;
  }

  function grant(text: string, what: string): TokenGrant {
    const body = parse<{ access_token: string; expires_in: number }>(
      text,
      (v) => typeof v.access_token === 'string' && typeof v.expires_in === 'number',
      what,
    );
    return { accessToken: body.access_token, expiresInSeconds: body.expires_in };
  }

  return { call, json, parse, grant };
}
