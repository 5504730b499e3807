/**
 * `node scripts/ci/report.ts`: CI's closing table. Each phase and its seconds (from
 * test-output/timings/phases.jsonl), then each runner's 10 slowest test files (from the runners'
 * JSON reports there). Prints what it finds; a phase that never ran is simply absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PHASES_FILE, reportFile, type PhaseTiming } from './timings.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SLOWEST = 10;

interface VitestReport {
  testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[];
}

interface PlaywrightSuite {
  file?: string;
  specs?: { tests: { results: { duration: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

/** Each file's seconds and tests. */
type FileTimes = Map<string, { seconds: number; tests: number }>;

function vitestFiles(report: VitestReport): FileTimes {
  const files: FileTimes = new Map();
  for (const result of report.testResults)
    files.set(path.relative(ROOT, result.name), {
      seconds: (result.endTime - result.startTime) / 1000,
      tests: result.assertionResults.length,
    });
  return files;
}

/** A Playwright file's time is the sum of its tests' (they run on two workers side by side). */
function playwrightFiles(report: { suites: PlaywrightSuite[] }): FileTimes {
  const files: FileTimes = new Map();
  const walk = (suite: PlaywrightSuite, file: string) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        const entry = files.get(file) ?? { seconds: 0, tests: 0 };
        entry.tests += 1;
        for (const result of test.results) entry.seconds += result.duration / 1000;
        files.set(file, entry);
      }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of report.suites) walk(suite, `tests/e2e/${suite.file ?? ''}`);
  return files;
}

function readJson<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function seconds(value: number): string {
  return value.toFixed(1).padStart(7);
}

const lines: string[] = ['', '── Where the time went ──', ''];
if (existsSync(PHASES_FILE)) {
  const phases = readFileSync(PHASES_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PhaseTiming);
  const width = Math.max(...phases.map((phase) => phase.phase.length), 5);
  lines.push(`${'phase'.padEnd(width)}  seconds`);
  for (const phase of phases)
    lines.push(`${phase.phase.padEnd(width)}  ${seconds(phase.seconds)}${phase.ok ? '' : '  FAILED'}`);
} else lines.push('(no phase timings recorded)');

const runners: [string, (report: never) => FileTimes][] = [
  ['vitest', vitestFiles as (report: never) => FileTimes],
  ['playwright', playwrightFiles as (report: never) => FileTimes],
  ['postgres-vitest', vitestFiles as (report: never) => FileTimes],
  ['postgres-instances', vitestFiles as (report: never) => FileTimes],
  ['postgres-playwright', playwrightFiles as (report: never) => FileTimes],
];
for (const [runner, filesOf] of runners) {
  const report = readJson<never>(reportFile(runner));
  if (!report) continue;
  const files = [...filesOf(report).entries()].sort((a, b) => b[1].seconds - a[1].seconds);
  const total = files.reduce((sum, [, file]) => sum + file.seconds, 0);
  lines.push(
    '',
    `${runner}: ${files.length} files, ${total.toFixed(0)} s of test time; the ${SLOWEST} slowest:`,
  );
  for (const [file, { seconds: time, tests }] of files.slice(0, SLOWEST))
    lines.push(`${seconds(time)}  ${file} (${tests} tests)`);
}
console.log(lines.join('\n'));
