import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/**
 * Answers like graph.threads.net does when it refuses (threads-api.md section 7): `{error: {message,
 * type, code, error_subcode?, fbtrace_id}}` with a fresh trace id per answer, as Meta's support asks
 * for it. Token and grant refusals are OAuthException, the rest THApiException.
 */
export function graphError(reply: FastifyReply, message: string, options: GraphErrorOptions = {}) {
  return reply.status(options.status ?? 400).send(graphErrorBody(message, options));
}

/** The error envelope itself (for an answer replaced after the endpoint ran). */
export function graphErrorBody(
  message: string,
  { code = 100, subcode, type = 'THApiException' }: GraphErrorOptions = {},
) {
  return {
    error: {
      message,
      type,
      code,
      ...(subcode ? { error_subcode: subcode } : {}),
      fbtrace_id: freshTraceId(),
    },
  };
}

/** An opaque id in the shape of Meta's fbtrace_id (e.g. "AOxKXdpgjW6_ToP1OrPobtf"). */
function freshTraceId(): string {
  return `A${randomBytes(16).toString('base64url').slice(0, 22)}`;
}

export interface GraphErrorOptions {
  status?: number;
  code?: number;
  subcode?: number;
  type?: 'THApiException' | 'OAuthException';
}

/** The refusal of an unknown, expired or refreshed-away token (Graph code 190). */
export function invalidToken(reply: FastifyReply) {
  return graphError(reply, 'Error validating access token: the session is invalid.', { code: 190 });
}

/**
 * The refusal of a call whose token lacks a permission (Graph code 10; threads-api.md section 10,
 * scopes per use): Meta names the permission the endpoint needs.
 */
export function missingPermission(reply: FastifyReply, scope: string) {
  return graphError(reply, `(#10) Application does not have permission for this action: needs ${scope}.`, {
    status: 403,
    code: 10,
  });
}
