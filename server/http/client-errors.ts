import type { Socket } from 'node:net';
import type { Config } from '../config.ts';
import { securityHeaders } from './security-headers.ts';

/**
 * Answers a request Node's HTTP parser rejected (oversized headers, a malformed request line) in our
 * shape: no route, hook or reply exists for it, so the response is written to the socket directly.
 */
export function clientErrorHandler(config: Config) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return;
    const [status, reason, detail] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive.']
          : [400, 'Bad Request', 'The request is malformed.'];
    const body = JSON.stringify({ detail });
    const headers = [
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(Buffer.byteLength(body))],
      ['Cache-Control', 'no-store'],
      ['Connection', 'close'],
      ...securityHeaders({ secure: config.secure }),
    ];
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n${headers.map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n${body}`,
    );
  };
}
