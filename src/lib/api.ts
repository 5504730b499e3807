import type { ApiError } from '../../contract/api-error.ts';
import { apiUrl } from './api-base.ts';

/** An API answer that was not 2xx, with the server's `{detail}` when it sent one. */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  readonly status: number;
  readonly detail: string | null;

  constructor(status: number, detail: string | null) {
    super(detail ?? `Request failed with HTTP status ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/**
 * Calls our API with the session cookie; JSON in and out; a non-2xx answer throws ApiRequestError.
 * `path` is `/api/...`: the build's API origin (API_BASE_URL) is put in front of it here, for every call.
 */
export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const response = await fetch(apiUrl(path), {
    method: init.method ?? 'GET',
    credentials: 'include',
    headers: init.body === undefined ? {} : { 'Content-Type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = (body as Partial<ApiError> | null)?.detail;
    throw new ApiRequestError(response.status, typeof detail === 'string' ? detail : null);
  }
  return body as T;
}

/** The server refused the caller (401/403): for lists only some people may read, an empty list. */
export function isDenied(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 401 || error.status === 403);
}

/** The server's own explanation of a failed call, or `fallback` when it gave none (or was not reached). */
export function detailOr(error: unknown, fallback: string): string {
  return (error instanceof ApiRequestError && error.detail) || fallback;
}

/** Why a call failed, in words: the server's detail, else its status, else that it was not reached. */
export function failureText(error: unknown): string {
  return error instanceof ApiRequestError
    ? (error.detail ?? error.message)
    : 'The server could not be reached. Check your connection.';
}
