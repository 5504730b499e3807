/**
 * Where the test runs leave their timings for CI's closing table (scripts/ci/report.ts): each phase's
 * seconds, one JSON line per phase, and each runner's JSON report. All of it under
 * test-output/timings/, which `.ci/run` empties first; a plain `npm test` leaves it there too.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const TIMINGS_DIR = path.resolve(import.meta.dirname, '../../test-output/timings');
export const PHASES_FILE = path.join(TIMINGS_DIR, 'phases.jsonl');

/** One finished phase, as a line of PHASES_FILE. */
export interface PhaseTiming {
  phase: string;
  seconds: number;
  ok: boolean;
}

/** Records how long a phase took and whether it passed. */
export function recordPhase(phase: string, startedAt: number, ok: boolean): void {
  mkdirSync(TIMINGS_DIR, { recursive: true });
  const timing: PhaseTiming = { phase, seconds: (performance.now() - startedAt) / 1000, ok };
  appendFileSync(PHASES_FILE, `${JSON.stringify(timing)}\n`);
}

/** Where a runner's JSON report goes (`vitest`, `playwright`, `postgres-vitest`, ...). */
export function reportFile(runner: string): string {
  mkdirSync(TIMINGS_DIR, { recursive: true });
  return path.join(TIMINGS_DIR, `${runner}.json`);
}
