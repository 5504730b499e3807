// No zod import here: the deletion-status island imports this module.

/** Deletion status (spec sections 3 and 4). */
export type DeletionStatus = 'completed' | 'in_progress' | 'error' | 'unknown';

/** `GET /api/auth/data-deletion-status/{code}`. */
export interface DeletionStatusResponse {
  status: DeletionStatus;
  message: string;
  deleted: boolean;
}

/** The status page's title and message per status. */
export const DELETION_STATUS_TEXT: Record<DeletionStatus, { title: string; message: string }> = {
  completed: { title: 'Deletion completed', message: 'Your data has been deleted from Curated Threads.' },
  in_progress: {
    title: 'Deletion in progress',
    message: 'Your deletion request is being processed. It is completed within 30 days.',
  },
  error: {
    title: 'Deletion failed',
    message: 'Something went wrong while deleting your data. We will retry; contact us if this persists.',
  },
  unknown: {
    title: 'Request not found',
    message: 'No deletion request has this confirmation code. Check the link you received.',
  },
};
