import { expect, test } from 'vitest';
import type { DeletionRequest } from '../../../../server/repositories/deletion-requests.ts';
import { toDeletionStatus } from '../../../../server/views/deletion-views.ts';

const REQUEST: DeletionRequest = {
  confirmationCode: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  threadsUserId: '17841400000000001',
  status: 'completed',
  createdAt: new Date('2026-04-01T00:00:00.000Z'),
  completedAt: new Date('2026-04-01T00:00:01.000Z'),
};

test.each([
  ['completed', 'Your data has been deleted from Curated Threads.', true],
  ['in_progress', 'Your deletion request is being processed. It is completed within 30 days.', false],
  [
    'error',
    'Something went wrong while deleting your data. We will retry; contact us if this persists.',
    false,
  ],
] as const)(
  'a %s request shows its status and message, and nothing about whose data',
  (status, message, deleted) => {
    expect(toDeletionStatus({ ...REQUEST, status })).toEqual({ status, message, deleted });
  },
);
