/** Reads the container files (Dockerfile, .dockerignore, compose.yaml) the way the tests check them. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

/** One Dockerfile instruction: its keyword (upper case) and the rest of its line(s), joined. */
export interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions in order: comments dropped, continued lines joined. */
export function dockerfileInstructions(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return logical
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of each build stage (a stage starts at a FROM). */
export function stages(instructions: Instruction[]): Instruction[][] {
  const result: Instruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') result.push([]);
    result.at(-1)?.push(instruction);
  }
  return result;
}

/** The variables a stage's ENV instructions set (`ENV A=1 B=2` form). */
export function stageEnv(stage: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of stage) {
    if (keyword !== 'ENV') continue;
    for (const pair of args.split(/\s+/)) {
      const at = pair.indexOf('=');
      if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
    }
  }
  return env;
}

/** Whether a top-level path is left out of the build context by .dockerignore's patterns. */
export function ignored(patterns: string[], name: string): boolean {
  return patterns.some((pattern) => {
    const regex = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return regex.test(name);
  });
}

/** .dockerignore's patterns, comments and blank lines dropped. */
export function dockerignorePatterns(): string[] {
  return readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

/** compose.yaml, parsed. */
export function composeFile(): ComposeFile {
  return parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8')) as ComposeFile;
}

export interface ComposeService {
  image?: string;
  build?: string | { context: string };
  init?: boolean;
  env_file?: string | string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** Fills compose's `${NAME}`, `${NAME:-default}` and `${NAME:?message}` from `values`, as compose does. */
export function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::[-?]([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
    const value = values[name];
    if (value) return value;
    if (/:\?/.test(_match)) throw new Error(`${name}: ${fallback ?? 'required'}`);
    return fallback ?? '';
  });
}
