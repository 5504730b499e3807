/**
 * `npm run test:quick`: the loop to run while working (DEVELOPERS.md). Of everything changed since
 * `main` (commits, staged, unstaged and new files), Vitest runs the tests that import it (its
 * related-files mode), and Playwright the browser specs that name it. The whole suite (`npm test`,
 * and CI's `.ci/run`) stays the proof before a stop. `--base REF` compares with another ref.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const E2E_DIR = path.join(ROOT, 'tests/e2e');
const baseIndex = process.argv.indexOf('--base');
const base = baseIndex >= 0 ? process.argv[baseIndex + 1] : 'main';
/** More specs than this and the loop is no longer quick: run `npm run test:e2e` instead. */
const MAX_SPECS = 6;
/** Words of file names too common to point at a spec of their own. */
const COMMON_WORDS = new Set([
  'index',
  'page',
  'pages',
  'view',
  'types',
  'helpers',
  'utils',
  'schema',
  'route',
  'routes',
]);

function git(...args: string[]): string[] {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** Files changed since the merge base with `base`, and those not yet committed, that still exist. */
function changedFiles(): string[] {
  const files = new Set([
    ...git('diff', '--name-only', `${base}...HEAD`),
    ...git('diff', '--name-only', 'HEAD'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ]);
  return [...files].filter((file) => existsSync(path.join(ROOT, file)));
}

/** The Playwright project a spec belongs to: its folder under tests/e2e, or `site`. */
function projectOf(spec: string): string {
  const parts = path.relative(E2E_DIR, spec).split(path.sep);
  return parts.length > 1 ? (parts[0] ?? 'site') : 'site';
}

/** The words of a file's name: `SubmitThread.tsx` gives submit and thread; `desk-rows.ts` desk and rows. */
function nameWords(file: string): string[] {
  const name = path.basename(file).replace(/\..*$/, '');
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word.length >= 4 && !COMMON_WORDS.has(word));
}

function allSpecs(dir = E2E_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return allSpecs(full);
    return entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/**
 * The browser specs a change touches: changed specs themselves, and for a changed file of the site
 * (src/) or of a route (server/routes/), the specs whose file name holds a word of its name or whose
 * text names the file.
 */
function browserSpecs(changed: string[]): string[] {
  const specs = allSpecs();
  const picked = new Set(
    changed.filter((file) => file.endsWith('.spec.ts')).map((file) => path.join(ROOT, file)),
  );
  for (const file of changed) {
    if (!/^(src|server\/routes)\//.test(file)) continue;
    const words = nameWords(file);
    const stem = path.basename(file).replace(/\..*$/, '');
    for (const spec of specs) {
      const specName = path.basename(spec, '.spec.ts');
      if (words.some((word) => specName.includes(word)) || readFileSync(spec, 'utf8').includes(stem))
        picked.add(spec);
    }
  }
  return [...picked].filter((spec) => existsSync(spec));
}

function run(title: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  console.log(`\n▶ ${title}`);
  return spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env }).status ?? 1;
}

const changed = changedFiles();
if (changed.length === 0) {
  console.log(`Nothing changed since ${base}: nothing to test.`);
  process.exit(0);
}
console.log(`${changed.length} files changed since ${base}.`);
let status = run('Vitest: the tests related to the change', [
  'node_modules/vitest/vitest.mjs',
  'related',
  '--run',
  '--passWithNoTests',
  ...changed,
]);
const specs = browserSpecs(changed);
if (specs.length === 0) console.log('\nNo browser spec names the changed files.');
else if (specs.length > MAX_SPECS)
  console.log(
    `\n${specs.length} browser specs name the changed files, too many for a quick loop: run npm run test:e2e (or pick with E2E_PROJECTS).`,
  );
else {
  const projects = [...new Set(specs.map(projectOf))];
  const browser = run(
    `Playwright: ${specs.map((spec) => path.relative(ROOT, spec)).join(', ')}`,
    ['node_modules/@playwright/test/cli.js', 'test', ...specs.map((spec) => path.relative(ROOT, spec))],
    { ...process.env, E2E_PROJECTS: projects.join(',') },
  );
  status ||= browser;
}
process.exit(status);
