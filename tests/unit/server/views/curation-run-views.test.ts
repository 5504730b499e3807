import { expect, test } from 'vitest';
import type { CurationRun } from '../../../../server/repositories/curation-runs.ts';
import { toCurationRunSummary } from '../../../../server/views/curation-run-views.ts';

const RUN: CurationRun = {
  id: 7,
  trigger: 'admin',
  status: 'partial',
  startedAt: new Date('2026-03-01T12:00:00.000Z'),
  finishedAt: new Date('2026-03-01T12:00:42.500Z'),
  counts: { public_search: { seen: 25, added: 4 } },
  searches: 2,
  hidden: 1,
  errors: ['Tag "css": Threads did not respond'],
};

test('a finished run with its times as ISO strings, counts and errors as recorded', () => {
  expect(toCurationRunSummary(RUN)).toEqual({
    id: 7,
    trigger: 'admin',
    status: 'partial',
    started_at: '2026-03-01T12:00:00.000Z',
    finished_at: '2026-03-01T12:00:42.500Z',
    counts: { public_search: { seen: 25, added: 4 } },
    searches: 2,
    hidden: 1,
    errors: ['Tag "css": Threads did not respond'],
  });
});

test('a run still going has no finish time', () => {
  expect(toCurationRunSummary({ ...RUN, status: 'running', finishedAt: null }).finished_at).toBeNull();
});
