/**
 * `npm run bench:versions`: what publishing a version costs several instances (decisions 036 and
 * 044) as the site grows. At 1,000, 10,000 and 100,000 served files (400,000, about what a million
 * threads export, with --million) it records a first version, lays it out in a fresh instance's
 * folder, then times approval-sized changes (12 files rewritten, one added, one removed): the
 * publisher's record, an instance catching up, the prune. Figures side by side in one run, with the
 * ratio of the largest size to the smallest; PGlite in memory, or PostgreSQL when DATABASE_URL is
 * set. Progress on stderr; the table, then its JSON on one line, on stdout and in
 * test-output/bench/versions.json. `--smoke`: tiny sizes, one change, written to versions-smoke.json
 * (the bench smoke, `node scripts/bench/run.ts --smoke`, runs the same); exit 1 when a figure is
 * missing. Exit 2 for a bad option.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import { createProgress } from './catalogue-report.ts';
import { measureVersions, versionsPlan, versionsTable } from './versions-measure.ts';

const HELP = `Usage: npm run bench:versions [-- --million | --smoke]
  --million  also 400,000 files (about what a million threads export; minutes)
  --smoke    tiny sizes, one change (also part of: node scripts/bench/run.ts --smoke)
  --help     this text`;

let options;
try {
  options = parseArgs({
    options: { million: { type: 'boolean' }, smoke: { type: 'boolean' }, help: { type: 'boolean' } },
  }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${HELP}`);
  process.exit(2);
}
if (options.help) {
  console.log(HELP);
  process.exit(0);
}
const progress = createProgress();
if (options.smoke) progress('versions: this smoke is also part of node scripts/bench/run.ts --smoke');
const { report, problems } = await measureVersions(
  versionsPlan({ smoke: options.smoke, million: options.million }),
  progress,
  process.env.DATABASE_URL,
);
const out = path.join(PROJECT_ROOT, 'test-output', 'bench');
await mkdir(out, { recursive: true });
// A smoke run's tiny figures must not replace the latest real report.
await writeFile(
  path.join(out, options.smoke ? 'versions-smoke.json' : 'versions.json'),
  `${JSON.stringify(report, null, 2)}\n`,
);
console.log(versionsTable(report.sizes));
console.log(JSON.stringify(report));
for (const problem of problems) console.error(`smoke: ${problem}`);
if (options.smoke && problems.length > 0) process.exit(1);
