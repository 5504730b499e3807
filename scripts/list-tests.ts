/**
 * `node scripts/list-tests.ts`: every test's name, one per line, per runner and project, as CI runs
 * them: `npm test` (Vitest unit + integration, Playwright) and the PostgreSQL pass (Vitest with
 * DATABASE_URL set, Playwright's `instances`). Nothing runs: the runners only collect. Diff two
 * outputs to see what a change to the suite added or removed; the counts go to stderr.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
// Collection never connects: any address makes the config list the PostgreSQL pass's projects.
const LIST_ONLY_DATABASE_URL = 'postgres://list-only@127.0.0.1:1/list_only';

interface VitestEntry {
  name: string;
  file: string;
  projectName: string;
}

function collect(args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    throw new Error(`Listing failed: ${args.join(' ')}`);
  }
  return result.stdout;
}

/** Vitest's collected tests as `label project file › name` lines. */
function vitestTests(label: string, env: NodeJS.ProcessEnv, filters: string[] = []): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'ct-list-'));
  try {
    const file = path.join(dir, 'tests.json');
    collect(['node_modules/vitest/vitest.mjs', 'list', `--json=${file}`, ...filters], env);
    const entries = JSON.parse(readFileSync(file, 'utf8')) as VitestEntry[];
    return entries.map(
      (entry) => `${label} ${entry.projectName} ${path.relative(ROOT, entry.file)} › ${entry.name}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: { title: string; file: string; tests: { projectName: string }[] }[];
  suites?: PlaywrightSuite[];
}

/** Playwright's listed tests as `label project file › describe › title` lines. */
function playwrightTests(label: string, env: NodeJS.ProcessEnv): string[] {
  const out = collect(['node_modules/@playwright/test/cli.js', 'test', '--list', '--reporter=json'], env);
  const report = JSON.parse(out) as { suites: PlaywrightSuite[] };
  const lines: string[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        lines.push(
          `${label} ${test.projectName} tests/e2e/${spec.file} › ${[...titles, spec.title].join(' › ')}`,
        );
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  // The top suites are the files: their titles are the paths, already printed.
  for (const file of report.suites) walk(file, []);
  return lines;
}

const withoutDatabase = { ...process.env, DATABASE_URL: '' };
const onPostgres = { ...process.env, DATABASE_URL: LIST_ONLY_DATABASE_URL, E2E_PROJECTS: 'instances' };
const groups: [string, string[]][] = [
  ['vitest', vitestTests('vitest', withoutDatabase)],
  ['playwright', playwrightTests('playwright', withoutDatabase)],
  // As scripts/test-postgres.ts runs them (decision 061): the tagged integration tests, then tests/postgres.
  [
    'postgres:vitest',
    [
      ...vitestTests('postgres:vitest', onPostgres, ['--project', 'integration', '--tags-filter=engine']),
      ...vitestTests('postgres:vitest', onPostgres, ['--project', 'postgres']),
    ],
  ],
  ['postgres:playwright', playwrightTests('postgres:playwright', onPostgres)],
];
for (const [, lines] of groups) console.log(lines.sort().join('\n'));
for (const [label, lines] of groups) console.error(`${label}: ${lines.length} tests`);
