/** A non-2xx answer to a GET, with its status (a 404 is worth no retry). */
export class HttpStatusError extends Error {
  readonly status: number;

  constructor(url: string, status: number) {
    super(`GET ${url} answered ${status}`);
    this.status = status;
  }
}

/** GETs a JSON document; any non-2xx status (HttpStatusError) or network failure throws. */
export async function fetchJson(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, { credentials: 'include', ...init });
  if (!response.ok) throw new HttpStatusError(url, response.status);
  return response.json();
}
