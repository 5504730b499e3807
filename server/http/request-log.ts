import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when it completes (method, path, status, time), instead of
 * Fastify's two. Successful reads (GET/HEAD under 400) are logged at debug: each line is a synchronous
 * write costing as much as the rest of a hot read, and health is polled. Writes, refusals and errors
 * stay at info, and errors are logged as before ('request errored', and by the error handler).
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const read = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode < 400;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (read) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
