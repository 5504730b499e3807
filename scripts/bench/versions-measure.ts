/**
 * The versions benchmark's measurement (decisions 036 and 044), run by `npm run bench:versions`
 * (versions.ts) and by the bench smoke (run.ts --smoke): at each size, a first version recorded and
 * laid out, then approval-sized changes recorded, caught up and pruned.
 */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type DatabaseHandle } from '../../server/db/client.ts';
import { assembleInSlot } from '../../server/publisher/distribute/local-versions.ts';
import { createObjectStore } from '../../server/publisher/distribute/object-store.ts';
import { versionFiles } from '../../server/publisher/distribute/version-files.ts';
import { createVersionRecorder } from '../../server/publisher/distribute/record-version.ts';
import { removeWithSiblings, writeAtomically } from '../../server/publisher/export/atomic-file.ts';
import { WriteJournal } from '../../server/publisher/export/write-journal.ts';
import { createSiteVersionsRepository } from '../../server/repositories/site-versions.ts';
import { median } from './stats.ts';

export interface SizeFigures {
  files: number;
  firstRecordMs: number;
  firstLayoutMs: number;
  recordMs: number;
  listingMs: number;
  catchUpMs: number;
  pruneMs: number;
  changedFiles: number;
}

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

async function measureSize(
  handle: DatabaseHandle,
  files: number,
  changes: number,
  progress: (message: string) => void,
): Promise<SizeFigures> {
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

/** The figures side by side, one column per size, then the largest over the smallest. */
export function versionsTable(sizes: readonly SizeFigures[]): string {
  const [small, large] = [sizes[0], sizes.at(-1)];
  const head = `| | ${sizes.map((s) => `${s.files.toLocaleString('en-US')} files`).join(' | ')} | largest / smallest |`;
  const rows = LINES.map(([key, label]) => {
    const ratio =
      small && large && Number(small[key]) > 0 ? (Number(large[key]) / Number(small[key])).toFixed(2) : '–';
    return `| ${label} | ${sizes.map((s) => Math.round(Number(s[key])).toLocaleString('en-US')).join(' | ')} | ${ratio} |`;
  });
  return [head, `|---|${sizes.map(() => '---:|').join('')}---:|`, ...rows].join('\n');
}

/** The sizes and changes of a run: the smoke's are tiny (see smoke-plan.ts). */
export function versionsPlan({ smoke = false, million = false } = {}): { sizes: number[]; changes: number } {
  if (smoke) return { sizes: [20, 200], changes: 1 };
  return { sizes: [1_000, 10_000, 100_000, ...(million ? [400_000] : [])], changes: 5 };
}

export interface VersionsReport {
  generatedAt: string;
  database: 'postgresql' | 'pglite';
  sizes: SizeFigures[];
}

/**
 * Measures every size in turn, on PostgreSQL at `databaseUrl` or else PGlite in memory; `problems`
 * names what a run left unmeasured (a size, a figure, a change that did not write its 14 files).
 */
export async function measureVersions(
  { sizes, changes }: { sizes: readonly number[]; changes: number },
  progress: (message: string) => void,
  databaseUrl?: string,
): Promise<{ report: VersionsReport; problems: string[] }> {
  const handle = databaseUrl ? openPostgres(databaseUrl) : await openPglite('memory://');
  await handle.migrate();
  progress(`versions: on ${databaseUrl ? 'PostgreSQL' : 'PGlite in memory'}, sizes ${sizes.join(', ')}`);
  const measured: SizeFigures[] = [];
  try {
    for (const files of sizes) {
      await handle.db.execute(sql.raw('truncate table site_versions, site_version_files, site_objects'));
      measured.push(await measureSize(handle, files, changes, progress));
    }
  } finally {
    await handle.close();
  }
  const problems = [
    ...(measured.length === sizes.length ? [] : [`${measured.length} of ${sizes.length} sizes measured`]),
    ...measured.flatMap((size) =>
      LINES.filter(([key]) => !Number.isFinite(Number(size[key]))).map(
        ([key]) => `${size.files} files: ${key} is ${size[key]}`,
      ),
    ),
    // An approval-sized change writes the home, the manifest, ten pages, one added and one removed.
    ...measured
      .filter((size) => size.changedFiles !== 14)
      .map((size) => `${size.files} files: the change wrote ${size.changedFiles} files, not 14`),
  ];
  const report: VersionsReport = {
    generatedAt: new Date().toISOString(),
    database: databaseUrl ? 'postgresql' : 'pglite',
    sizes: measured,
  };
  return { report, problems };
}
