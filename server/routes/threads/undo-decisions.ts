import type { FastifyInstance } from 'fastify';
import { UndoDecisionSchema } from '../../../contract/review-queue-schemas.ts';
import type { UndoDecisionResult } from '../../../contract/review-undo.ts';
import type { Database } from '../../db/client.ts';
import { parseBody } from '../../http/http-error.ts';
import { createDecisionUndo } from '../../services/review/undo-decisions.ts';

/** `POST /api/threads/undo`: an admin takes back their own decisions of the last minute (decision 047). */
export function registerUndoDecisions(app: FastifyInstance, { db }: { db: Database }) {
  const undoDecisions = createDecisionUndo(db);
  app.post('/api/threads/undo', { config: { access: 'admin' } }, async (request) => {
    const admin = await request.authUser();
    const { thread_ids: ids } = parseBody(UndoDecisionSchema, request.body);
    const outcome = await undoDecisions(ids, admin.id);
    // Told once committed: the site drops an undone approval like a removal, the log its entry.
    for (const change of outcome.changes) app.contentChanged(change);
    const result: UndoDecisionResult = { undone: outcome.undone };
    return result;
  });
}
