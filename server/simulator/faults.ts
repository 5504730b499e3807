import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../http/route-schemas.ts';
import { graphError, graphErrorBody, type GraphErrorOptions } from './graph-error.ts';

/**
 * Graph's own wording and HTTP status for the codes tests inject (threads-api.md section 7 and
 * section 10, errors): throttling (4 application, 17 user, 32 page, 613 custom), transient faults
 * (1, 2) and an expired token (190). All come as OAuthException, like Graph sends them.
 */
const GRAPH_CODES: Record<number, { message: string; status: number }> = {
  1: { message: 'An unknown error occurred', status: 500 },
  2: { message: 'An unexpected error has occurred. Please retry your request later.', status: 500 },
  4: { message: '(#4) Application request limit reached', status: 400 },
  17: { message: '(#17) User request limit reached', status: 400 },
  32: { message: '(#32) Page request limit reached', status: 400 },
  613: { message: '(#613) Calls to this api have exceeded the rate limit.', status: 400 },
  190: { message: 'Error validating access token: Session has expired.', status: 400 },
};

/** A fault to answer the next `times` matching calls with (the test control's body). */
export const FaultSchema = z
  .object({
    /** An endpoint path below the provider (`/refresh_access_token`), or a folder of them (`/v1.0/`). */
    path: z.string().regex(/^\/[\w./-]*$/, 'must be a path such as /v1.0/me/threads_publish'),
    /** Only calls with this method (e.g. POST /v1.0/me/threads makes a container, GET lists posts). */
    method: z.enum(['GET', 'POST', 'DELETE']).optional(),
    code: z.number().int().min(1).max(99_999),
    subcode: z.number().int().min(1).optional(),
    /** The HTTP status; Graph's own for the code by default. */
    status: z.number().int().min(400).max(599).optional(),
    message: z.string().min(1).max(300).optional(),
    times: z.number().int().min(1).max(1000).default(1),
    /**
     * The call does its work (a post is published) and only then is its answer replaced by the
     * error: a lost answer, as when a connection drops after Threads acted.
     */
    lose_answer: z.boolean().default(false),
  })
  .strict();

export type Fault = z.infer<typeof FaultSchema>;

/** The faults waiting to be answered, in the order they were set. */
export class SimulatedFaults {
  #faults: Fault[] = [];

  add(fault: Fault): void {
    this.#faults.push({ ...fault });
  }

  clear(): void {
    this.#faults = [];
  }

  /** The first fault matching this call, used up once; null when the call goes through. */
  take(method: string, path: string): Fault | null {
    const fault = this.#faults.find(
      (candidate) =>
        (!candidate.method || candidate.method === method) &&
        (path === candidate.path ||
          path.startsWith(candidate.path.endsWith('/') ? candidate.path : `${candidate.path}/`)),
    );
    if (!fault) return null;
    fault.times -= 1;
    if (fault.times <= 0) this.#faults.splice(this.#faults.indexOf(fault), 1);
    return fault;
  }
}

/** Where the test controls answer, below the provider's prefix; never faulted themselves. */
export const CONTROLS_PATH = '/_controls';

/**
 * Fault injection for the test suites (SIMULATED_CONTROLS=true only): an onRequest hook answers a
 * matching call with Graph's error envelope and a fresh fbtrace_id before the endpoint runs, so any
 * endpoint can be made to throttle or fail. `POST /_controls/faults` adds one, `DELETE` clears all.
 */
export function registerFaults(app: FastifyInstance, faults: SimulatedFaults): void {
  const envelope = (fault: Fault) => {
    const known = GRAPH_CODES[fault.code];
    const options: GraphErrorOptions = {
      status: fault.status ?? known?.status ?? 400,
      code: fault.code,
      type: known ? 'OAuthException' : 'THApiException',
      ...(fault.subcode ? { subcode: fault.subcode } : {}),
    };
    return { message: fault.message ?? known?.message ?? `(#${fault.code}) Simulated fault`, options };
  };
  // Calls whose answer is lost once the endpoint has done its work.
  const losing = new WeakMap<FastifyRequest, Fault>();

  app.addHook('onRequest', async (request, reply) => {
    const pathname = new URL(request.url, 'http://simulated').pathname.slice(app.prefix.length);
    if (pathname.startsWith(`${CONTROLS_PATH}/`)) return;
    const fault = faults.take(request.method, pathname);
    if (!fault) return;
    if (fault.lose_answer) {
      losing.set(request, fault);
      return;
    }
    const { message, options } = envelope(fault);
    return graphError(reply, message, options);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const fault = losing.get(request);
    if (!fault) return payload;
    losing.delete(request);
    const { message, options } = envelope(fault);
    reply.status(options.status ?? 400).header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify(graphErrorBody(message, options));
  });

  app.post(`${CONTROLS_PATH}/faults`, async (request, reply) => {
    faults.add(parseWith(FaultSchema, request.body));
    return reply.status(204).send();
  });

  app.delete(`${CONTROLS_PATH}/faults`, async (_request, reply) => {
    faults.clear();
    return reply.status(204).send();
  });
}
