import { z } from './zod.ts';

/**
 * How long after a decision the server still undoes it (decision 047): longer than the desk shows
 * its Undo, so a click in the last moment, or a slow answer, is never refused.
 */
export const UNDO_WINDOW_SECONDS = 60;
/** How long the desk offers Undo after a decision. */
export const UNDO_SHOWN_MS = 10_000;

/** `POST /api/threads/undo`: the decisions that were undone (all of those asked, or none). */
export const UndoDecisionResultSchema = z.object({ undone: z.array(z.string()) });
export type UndoDecisionResult = z.infer<typeof UndoDecisionResultSchema>;

/** The desk's texts for Undo. */
export const UNDO_TEXTS = {
  undo: 'Undo',
  undoing: 'Undoing...',
  undoFailed: 'The decision could not be undone.',
} as const;

/** What the Undo bar says about the decision it offers to take back: "Approved 3 threads." */
export function decisionSummary(action: 'approve' | 'reject', count: number, handle?: string): string {
  const verb = action === 'approve' ? 'Approved' : 'Rejected';
  if (count === 1 && handle) return `${verb} the thread by ${handle}.`;
  return `${verb} ${count} ${count === 1 ? 'thread' : 'threads'}.`;
}

/** The live region's message once a decision is undone. */
export const undoneMessage = (count: number) =>
  count === 1
    ? 'Undone: the thread is back in the queue.'
    : `Undone: ${count} threads are back in the queue.`;
