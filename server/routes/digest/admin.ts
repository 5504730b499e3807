import type { FastifyPluginAsync } from 'fastify';
import { DigestDraftSchema, DigestNoteSchema, DigestTrimSchema } from '../../../contract/digest.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createDigestsRepository } from '../../repositories/digests.ts';
import { digestDraft, draftRow } from '../../services/digest/digest-draft.ts';

export interface DigestAdminOptions {
  db: Database;
  config: Pick<Config, 'digest' | 'mail'>;
}

const PUBLISHED =
  'This digest was published meanwhile: the next one is being prepared now. Reload to see it.';

/**
 * The admin's side of the digest (issue 22): see the one being prepared, leave threads out or put
 * them back, write its note. Each change is audited with it, in one transaction.
 */
const digestAdminRoutes: FastifyPluginAsync<DigestAdminOptions> = async (server, { db, config }) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const digests = createDigestsRepository(db);
  const audit = createAuditLogRepository(db);
  const answer = { response: { 200: DigestDraftSchema } };

  app.get('/api/admin/digest', { config: { access: 'admin' }, schema: answer }, async () =>
    digestDraft({ db, config }),
  );

  app.post(
    '/api/admin/digest/trim',
    { config: { access: 'admin' }, schema: { body: DigestTrimSchema, ...answer } },
    async (request) => {
      const admin = await request.authUser();
      const { thread_id: threadId, excluded } = request.body;
      const row = await draftRow(db);
      const updated = await db.transaction(async (tx) => {
        const changed = await digests.setExcluded(row.id, threadId, excluded, tx);
        if (!changed) throw new HttpError(409, PUBLISHED);
        await audit.record(
          {
            actorUserId: admin.id,
            action: excluded ? 'digest.exclude' : 'digest.include',
            subject: row.id,
            details: { thread_id: threadId },
          },
          tx,
        );
        return changed;
      });
      return digestDraft({ db, config }, updated);
    },
  );

  app.put(
    '/api/admin/digest/note',
    { config: { access: 'admin' }, schema: { body: DigestNoteSchema, ...answer } },
    async (request) => {
      const admin = await request.authUser();
      const row = await draftRow(db);
      const updated = await db.transaction(async (tx) => {
        const changed = await digests.setNote(row.id, request.body.note, tx);
        if (!changed) throw new HttpError(409, PUBLISHED);
        await audit.record({ actorUserId: admin.id, action: 'digest.note', subject: row.id }, tx);
        return changed;
      });
      return digestDraft({ db, config }, updated);
    },
  );
};

export default digestAdminRoutes;
