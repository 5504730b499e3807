import path from 'node:path';
import type { TestSpecification, Vitest } from 'vitest/node';
import { expect, test } from 'vitest';
import { SLOW_FILES, SlowFilesFirst } from '../../slow-files-first.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/** A file of a project as the sequencer sees it; no results cached, as on a clean clone. */
function spec(file: string, project: string): TestSpecification {
  return {
    moduleId: path.join(root, file),
    project: { name: project, config: { root, isolate: project === 'unit', sequence: { groupOrder: 0 } } },
  } as unknown as TestSpecification;
}

test('the listed slow files come first, in their listed order; the rest keep Vitest’s order', async () => {
  const context = { cache: { getTestSpecificationResult: () => undefined } } as unknown as Vitest;
  const files = [
    spec('tests/unit/a.test.ts', 'unit'),
    spec(SLOW_FILES[2] ?? '', 'integration'),
    spec('tests/integration/db/pid-lock.test.ts', 'integration'),
    spec(SLOW_FILES[0] ?? '', 'integration'),
  ];
  const sorted = (await new SlowFilesFirst(context).sort(files)).map((file) =>
    path.relative(root, file.moduleId),
  );
  expect(sorted.slice(0, 2)).toEqual([SLOW_FILES[0], SLOW_FILES[2]]);
  expect(new Set(sorted.slice(2))).toEqual(
    new Set(['tests/unit/a.test.ts', 'tests/integration/db/pid-lock.test.ts']),
  );
});
