import type { FastifyInstance } from 'fastify';
import { UndoDecisionSchema } from '../../../contract/review-queue-schemas.ts';
import { UndoDecisionResultSchema } from '../../../contract/review-undo.ts';
import type { Database } from '../../db/client.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { createDecisionUndo } from '../../services/review/undo-decisions.ts';

/** `POST /api/threads/undo`: an admin takes back their own decisions of the last minute (decision 047). */
export function registerUndoDecisions(server: FastifyInstance, { db }: { db: Database }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const undoDecisions = createDecisionUndo(db);
  const schema = { body: UndoDecisionSchema, response: { 200: UndoDecisionResultSchema } };
  app.post('/api/threads/undo', { config: { access: 'admin' }, schema }, async (request) => {
    const admin = await request.authUser();
    const outcome = await undoDecisions(request.body.thread_ids, admin.id);
    // Told once committed: the site drops an undone approval like a removal, the log its entry.
    for (const change of outcome.changes) app.contentChanged(change);
    return { undone: outcome.undone };
  });
}
