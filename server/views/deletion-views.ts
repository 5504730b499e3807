import { DELETION_STATUS_TEXT, type DeletionStatusResponse } from '../../contract/data-deletion.ts';
import type { DeletionRequest } from '../repositories/deletion-requests.ts';

/** A deletion request as its public status page reads it: only the status, never whose data it was. */
export function toDeletionStatus(request: DeletionRequest): DeletionStatusResponse {
  return {
    status: request.status,
    message: DELETION_STATUS_TEXT[request.status].message,
    deleted: request.status === 'completed',
  };
}
