/**
 * `npm run bench:versions`: what publishing a version costs several instances (decisions 036 and
 * 044) as the site grows. At 1,000, 10,000 and 100,000 served files (400,000, about what a million
 * threads export, with --million) it records a first version, lays it out in a fresh instance's
 * folder, then times approval-sized changes (12 files rewritten, one added, one removed): the
 * publisher's record, an instance catching up, the prune. Figures side by side in one run, with the
 * ratio of the largest size to the smallest; PGlite in memory, or PostgreSQL when DATABASE_URL is
 * set. Progress on stderr; the table, then its JSON on one line, on stdout and in
 * test-output/bench/versions.json. `--smoke` (npm test): 200 and 2,000 files, one change; exit 1
 * when a figure is missing. Exit 2 for a bad option.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type DatabaseHandle } from '../../server/db/client.ts';
import { PROJECT_ROOT } from '../../server/publisher/build/build-site.ts';
import { assembleInSlot } from '../../server/publisher/distribute/local-versions.ts';
import { createObjectStore } from '../../server/publisher/distribute/object-store.ts';
import { versionFiles } from '../../server/publisher/distribute/version-files.ts';
import { createVersionRecorder } from '../../server/publisher/distribute/record-version.ts';
import { removeWithSiblings, writeAtomically } from '../../server/publisher/export/atomic-file.ts';
import { WriteJournal } from '../../server/publisher/export/write-journal.ts';
import { createSiteVersionsRepository } from '../../server/repositories/site-versions.ts';
import { createProgress } from './catalogue-report.ts';
import { median } from './stats.ts';

const HELP = `Usage: npm run bench:versions [-- --million | --smoke]
  --million  also 400,000 files (about what a million threads export; minutes)
  --smoke    tiny sizes, one change (npm test)
  --help     this text`;

interface SizeFigures {
  files: number;
  firstRecordMs: number;
  firstLayoutMs: number;
  recordMs: number;
  listingMs: number;
  catchUpMs: number;
  pruneMs: number;
  changedFiles: number;
}

const progress = createProgress();
const FOLDERS = 100;

/** A page-sized file whose content is its own (every file a distinct object). */
const body = (name: string, round: number) =>
  `{"page":"${name}","round":${round},"cards":[${'0,'.repeat(700)}0]}`;

/** Writes each file as the export does (a new file renamed into place, noted in the journal). */
async function writeFiles(dir: string, names: readonly string[], round: number): Promise<void> {
  for (const name of names) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeAtomically(file, body(name, round));
  }
}

async function measureSize(handle: DatabaseHandle, files: number, changes: number): Promise<SizeFigures> {
  const repository = createSiteVersionsRepository(handle.db);
  const root = await mkdtemp(path.join(tmpdir(), `ct-bench-versions-${files}-`));
  try {
    const [siteDir, catalogueDir] = [path.join(root, 'work/site'), path.join(root, 'work/data')];
    const names = Array.from({ length: files }, (_, i) => `pages/topics/t${i % FOLDERS}/${i}.json`);
    progress(`versions: ${files.toLocaleString('en-US')} files: writing them (not timed)…`);
    await writeFiles(siteDir, ['index.html', '404.html'], 0);
    await writeFiles(catalogueDir, ['manifest.json', ...names], 0);
    const journal = new WriteJournal(catalogueDir);
    const recorder = createVersionRecorder({
      repository,
      objects: createObjectStore(path.join(root, 'publisher-objects')),
      instanceId: 'bench',
      leadMs: 0,
      journal,
    });
    const input = { siteDir, catalogueDir, catalogueVersion: null };
    let started = performance.now();
    let id = await recorder.record(input);
    const firstRecordMs = performance.now() - started;
    const publishedDir = path.join(root, 'instance');
    const context = {
      repository,
      objects: createObjectStore(path.join(publishedDir, 'objects')),
      publishedDir,
    };
    started = performance.now();
    await assembleInSlot(0, id, context);
    const firstLayoutMs = performance.now() - started;
    progress(
      `versions: ${files.toLocaleString('en-US')} files: first record ${Math.round(firstRecordMs)} ms, layout ${Math.round(firstLayoutMs)} ms`,
    );
    const times = { record: [] as number[], catchUp: [] as number[], prune: [] as number[] };
    let changedFiles = 0;
    for (let round = 1; round <= changes; round += 1) {
      // An approval: the home, the manifest, ten first pages rewritten; a page added and one removed.
      await writeFiles(siteDir, ['index.html'], round);
      await writeFiles(
        catalogueDir,
        ['manifest.json', ...names.slice(0, 10), `pages/all/${round}.json`],
        round,
      );
      await removeWithSiblings(path.join(catalogueDir, names[files - round] ?? ''));
      started = performance.now();
      id = await recorder.record(input);
      times.record.push(performance.now() - started);
      started = performance.now();
      await assembleInSlot(0, id, context);
      times.catchUp.push(performance.now() - started);
      started = performance.now();
      await repository.prune(10);
      times.prune.push(performance.now() - started);
      changedFiles = (await repository.find(id))?.changedCount ?? 0;
    }
    // What every record cost before the journal, with its hash cache warm: listing both folders and
    // one stat per file (the files' bytes were read again only when they changed).
    started = performance.now();
    const [site, data] = await versionFiles(siteDir, catalogueDir);
    for (const { file } of [...site, ...data]) await stat(file);
    const listingMs = performance.now() - started;
    journal.close();
    return {
      files,
      listingMs,
      firstRecordMs,
      firstLayoutMs,
      recordMs: median(times.record),
      catchUpMs: median(times.catchUp),
      pruneMs: median(times.prune),
      changedFiles,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const LINES: [keyof SizeFigures, string][] = [
  ['firstRecordMs', 'First version recorded (whole), ms'],
  ['firstLayoutMs', 'A new instance lays it out, ms'],
  ['changedFiles', 'Files an approval-sized change writes'],
  ['recordMs', 'Publisher records the change, ms (median)'],
  ['listingMs', 'Listing and a stat of every file instead (before 044), ms'],
  ['catchUpMs', 'An instance catches up, ms (median)'],
  ['pruneMs', 'Prune to 10 versions, ms (median)'],
];

function table(sizes: SizeFigures[]): string {
  const [small, large] = [sizes[0], sizes.at(-1)];
  const head = `| | ${sizes.map((s) => `${s.files.toLocaleString('en-US')} files`).join(' | ')} | largest / smallest |`;
  const rows = LINES.map(([key, label]) => {
    const ratio =
      small && large && Number(small[key]) > 0 ? (Number(large[key]) / Number(small[key])).toFixed(2) : '–';
    return `| ${label} | ${sizes.map((s) => Math.round(Number(s[key])).toLocaleString('en-US')).join(' | ')} | ${ratio} |`;
  });
  return [head, `|---|${sizes.map(() => '---:|').join('')}---:|`, ...rows].join('\n');
}

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
const sizes = options.smoke ? [200, 2_000] : [1_000, 10_000, 100_000, ...(options.million ? [400_000] : [])];
const changes = options.smoke ? 1 : 5;
const url = process.env.DATABASE_URL;
const handle = url ? openPostgres(url) : await openPglite('memory://');
await handle.migrate();
progress(`versions: on ${url ? 'PostgreSQL' : 'PGlite in memory'}, sizes ${sizes.join(', ')}`);
const measured: SizeFigures[] = [];
try {
  for (const files of sizes) {
    await handle.db.execute(sql.raw('truncate table site_versions, site_version_files, site_objects'));
    measured.push(await measureSize(handle, files, changes));
  }
} finally {
  await handle.close();
}
const out = path.join(PROJECT_ROOT, 'test-output', 'bench');
await mkdir(out, { recursive: true });
const report = {
  generatedAt: new Date().toISOString(),
  database: url ? 'postgresql' : 'pglite',
  sizes: measured,
};
await writeFile(path.join(out, 'versions.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(table(measured));
console.log(JSON.stringify(report));
const missing = measured.filter((size) => LINES.some(([key]) => !Number.isFinite(Number(size[key]))));
if (
  options.smoke &&
  (measured.length !== sizes.length || missing.length > 0 || measured.some((s) => s.changedFiles !== 14))
)
  process.exit(1);
