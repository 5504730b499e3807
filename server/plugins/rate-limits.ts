import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http/http-error.ts';
import { createRateLimitCountersRepository } from '../repositories/rate-limit-counters.ts';
import { sharedRateLimitStore } from './rate-limit-store.ts';

/** The limits per route family (security matrix row 20), before RATE_LIMIT_MULTIPLIER. */
export const RATE_LIMITS = {
  signIn: { max: 20, timeWindow: '1 minute' },
  inviteRequest: { max: 5, timeWindow: '1 hour' },
  profileUpdate: { max: 30, timeWindow: '1 hour' },
  // Saving and removing gems (each one republishes the member's public page, coalesced).
  gemToggle: { max: 300, timeWindow: '1 hour' },
  // Attempts, refused ones included (each may look the post up on Threads); the database counts
  // the 10 stored submissions per hour.
  submissionAttempt: { max: 60, timeWindow: '1 hour' },
  metaCallback: { max: 60, timeWindow: '1 minute' },
  // An author removing, restoring, opting out or back in (a removal may republish the site, coalesced).
  authorControl: { max: 120, timeWindow: '1 hour' },
  // Each subscription may mail a confirmation (one per address a day): few per visitor.
  digestSubscribe: { max: 10, timeWindow: '1 hour' },
  // A member saving their notice mail address (each new address may mail a confirmation).
  noticeMailSave: { max: 10, timeWindow: '1 hour' },
  // Following a mailed link: confirm or unsubscribe, by hand or by a mail app's one click.
  mailLink: { max: 60, timeWindow: '1 minute' },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** The route config for a named limit, scaled by the multiplier. */
export function limit(name: RateLimitName, multiplier: number) {
  const { max, timeWindow } = RATE_LIMITS[name];
  return { max: max * multiplier, timeWindow };
}

/**
 * Rate limits, per route (none globally): keyed on the signed-in user, otherwise on the client
 * address (X-Forwarded-For counts only from trusted proxies, so forging it resets nothing).
 * On PostgreSQL the instances count together in the database (decision 066); the embedded
 * database has one process, whose memory counts (the plugin's own store).
 */
const rateLimits: FastifyPluginAsync = async (app) => {
  const shared =
    app.database.kind === 'postgres'
      ? {
          store: sharedRateLimitStore({
            counters: createRateLimitCountersRepository(app.database.db),
            log: app.log,
          }),
          // A hit the database could not count lets the request through (the store logs it).
          skipOnError: true,
        }
      : {};
  await app.register(rateLimit, {
    ...shared,
    global: false,
    keyGenerator: async (request) => (await request.currentUser())?.id ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new HttpError(context.statusCode, `Too many requests. Please try again in ${context.after}.`),
  });
};

export default fp(rateLimits, { name: 'rate-limits', dependencies: ['database', 'session'] });
