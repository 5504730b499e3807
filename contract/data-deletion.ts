import { z } from './zod.ts';

/** Deletion status (spec sections 3 and 4). */
export const DeletionStatusSchema = z.enum(['completed', 'in_progress', 'error', 'unknown']);
export type DeletionStatus = z.infer<typeof DeletionStatusSchema>;

/** `GET /api/auth/data-deletion-status/{code}`. */
export const DeletionStatusResponseSchema = z.object({
  status: DeletionStatusSchema,
  message: z.string(),
  deleted: z.boolean(),
});
export type DeletionStatusResponse = z.infer<typeof DeletionStatusResponseSchema>;

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

/** Meta's data deletion and deauthorize callbacks post a `signed_request` (a form field or JSON). */
export const SignedRequestBodySchema = z.looseObject({
  signed_request: z.string({ error: 'a signed request from Meta is required.' }),
});

/** `POST /api/auth/data-deletion`: where the person follows their request, and its code (Meta's format). */
export const DeletionCallbackResultSchema = z.object({ url: z.string(), confirmation_code: z.string() });

/** `GET /api/auth/data-deletion-status/{code}`: the confirmation code in the path. */
export const DeletionStatusParamsSchema = z.object({ code: z.string() });
