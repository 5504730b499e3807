import type { z } from 'zod';

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

/** Parses a request body with a contract schema; the first problem becomes a readable 400. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue?.code === 'unrecognized_keys')
    throw new HttpError(400, `Unknown field: ${issue.keys.join(', ')}.`);
  const field = issue?.path.join('.') || 'body';
  throw new HttpError(
    400,
    issue?.message.includes(' ') ? `${field}: ${issue.message}` : `${field}: invalid value.`,
  );
}
