import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take far longer than the rest, longest first (CI's closing table names them). On a
 * clean clone Vitest has no timings cached and starts the largest files first; one of these begun
 * last would hold a worker alone at the end while the other waits (ci19: a 180 s file started at
 * minute four). Two workers take them in this order.
 */
export const SLOW_FILES = [
  'tests/integration/publisher/export/export-memory.test.ts',
  'tests/integration/publisher/build/build-site.test.ts',
  'tests/integration/user/admin-cli-backup.test.ts',
  // Builds a site too: listed apart from build-site, so the two builds do not start at once.
  'tests/integration/publisher/two-servers-one-site.test.ts',
  'tests/integration/server/process.test.ts',
];

/** Vitest's order (projects, then cached durations or sizes), with the known slow files first. */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FILES.indexOf(path.relative(spec.project.config.root, spec.moduleId));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
