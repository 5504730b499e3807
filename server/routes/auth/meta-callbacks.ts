import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { SuccessSchema } from '../../../contract/auth.ts';
import {
  DELETION_STATUS_TEXT,
  DeletionCallbackResultSchema,
  DeletionStatusParamsSchema,
  DeletionStatusResponseSchema,
  SignedRequestBodySchema,
} from '../../../contract/data-deletion.ts';
import type { Database } from '../../db/client.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createDeletionRequestsRepository } from '../../repositories/deletion-requests.ts';
import { createSessionsRepository } from '../../repositories/sessions.ts';
import { createThreadsTokensRepository } from '../../repositories/threads-tokens.ts';
import { createUsersRepository } from '../../repositories/users.ts';
import { createCardConsentsRepository } from '../../repositories/card-consents.ts';
import { SignedRequestError, verifySignedRequest } from '../../threads/signed-request.ts';
import { acceptFormBodies } from '../../http/form-body.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { toDeletionStatus } from '../../views/deletion-views.ts';

export interface MetaCallbackOptions {
  db: Database;
  appSecret: string;
  publicOrigin: string;
  rateLimitMultiplier: number;
}

const CODE = /^[A-Za-z0-9]{16,64}$/;

/**
 * Meta's data-deletion and deauthorize callbacks (threads-api.md section 6) and the deletion status.
 * The callbacks are server-to-server POSTs from Meta: exempt from the same-origin rule, trusted only
 * through the signed_request, and idempotent.
 */
const metaCallbacks: FastifyPluginAsync<MetaCallbackOptions> = async (
  server,
  { db, appSecret, publicOrigin, rateLimitMultiplier },
) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const users = createUsersRepository(db);
  const cardConsents = createCardConsentsRepository(db);
  const deletions = createDeletionRequestsRepository(db);
  const audit = createAuditLogRepository(db);
  const tokens = createThreadsTokensRepository(db);
  const sessions = createSessionsRepository(db);
  // Meta posts a form field; some integrations send JSON. Forms are accepted in this scope only.
  acceptFormBodies(app, 8192);

  /** The Threads user a verified signed_request names (its shape checked by the route's schema). */
  function verifiedUserId(request: FastifyRequest, field: string): string {
    try {
      return verifySignedRequest(field, appSecret).userId;
    } catch (error) {
      if (!(error instanceof SignedRequestError)) throw error;
      request.log.warn({ reason: error.message }, 'signed_request refused');
      throw new HttpError(400, `Invalid signed_request: ${error.message}`);
    }
  }

  const callback = {
    config: {
      access: 'public' as const,
      crossSite: true,
      rateLimit: limit('metaCallback', rateLimitMultiplier),
    },
    bodyLimit: 8192,
  };
  const deletion = {
    ...callback,
    schema: { body: SignedRequestBodySchema, response: { 200: DeletionCallbackResultSchema } },
  };
  const deauthorize = {
    ...callback,
    schema: { body: SignedRequestBodySchema, response: { 200: SuccessSchema } },
  };

  app.post('/api/auth/data-deletion', deletion, async (request) => {
    const threadsUserId = verifiedUserId(request, request.body.signed_request);
    const confirmation = await db.transaction(async (tx) => {
      const user = await users.findByThreadsUserId(threadsUserId, tx);
      const previous = await deletions.latestForThreadsUser(threadsUserId, tx);
      // Asked again with nothing left to delete: the same confirmation as before.
      if (!user && previous) return previous.confirmationCode;
      if (user) {
        // Their choice of cards goes with them (decision 070): their posts fall back to the embed.
        const author = { threadsUserId, username: user.threadsUsername, userId: user.id };
        await cardConsents.withdraw(author, tx);
        await users.delete(user.id, tx);
      }
      const code = randomBytes(16).toString('hex');
      await deletions.create(code, threadsUserId, tx);
      await audit.record({ actorUserId: null, action: 'user.data_deleted', subject: threadsUserId }, tx);
      return code;
    });
    request.log.info({ threadsUserId }, 'data deletion completed');
    // Announced as urgent as an approval: an erased member's page must not wait out the member
    // publish cap (decision 033), which is for changes a member makes, not for their removal.
    app.contentChanged('threads');
    return {
      url: `${publicOrigin}/data-deletion-status?code=${confirmation}`,
      confirmation_code: confirmation,
    };
  });

  app.post('/api/auth/deauthorize', deauthorize, async (request) => {
    const threadsUserId = verifiedUserId(request, request.body.signed_request);
    await db.transaction(async (tx) => {
      const user = await users.findByThreadsUserId(threadsUserId, tx);
      if (!user) return;
      // The app lost its permission: the token is useless and every session ends.
      await tokens.delete(user.id, tx);
      await sessions.deleteAllForUser(user.id, tx);
      await users.setReconnectNeeded(user.id, true, tx);
      await audit.record({ actorUserId: null, action: 'user.deauthorized', subject: user.id }, tx);
    });
    return { success: true as const };
  });

  app.get(
    '/api/auth/data-deletion-status/:code',
    {
      config: { access: 'public' },
      schema: { params: DeletionStatusParamsSchema, response: { 200: DeletionStatusResponseSchema } },
    },
    async (request) => {
      const found = CODE.test(request.params.code) ? await deletions.findByCode(request.params.code) : null;
      if (!found) throw new HttpError(404, DELETION_STATUS_TEXT.unknown.message);
      return toDeletionStatus(found);
    },
  );
};

export default metaCallbacks;
