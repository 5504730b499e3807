/** An error whose message is written for the person using the site: sent as {detail} whatever its status. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly statusCode: number;
  /** Extra response headers, e.g. Retry-After on a 429. */
  readonly headers: Record<string, string>;

  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.headers = headers;
  }
}
