import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import {
  composeFile,
  dockerfileInstructions,
  dockerignorePatterns,
  ignored,
  interpolate,
  ROOT,
  stageEnv,
  stages,
} from './container-files.ts';

const instructions = dockerfileInstructions(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const built = stages(instructions);
const runtime = built.at(-1) ?? [];
const runtimeEnv = stageEnv(runtime);
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
const compose = composeFile();

/** The first instruction of a keyword in the runtime stage, or a failed expectation. */
function only(keyword: string): string {
  const found = runtime.filter((instruction) => instruction.keyword === keyword);
  expect(found, `one ${keyword} in the runtime stage`).toHaveLength(1);
  return found[0]?.args ?? '';
}

describe('Dockerfile (decision 051)', () => {
  test('multi-stage on Node 24 slim: the dependencies stage installs production dependencies only', () => {
    expect(instructions.find((i) => i.keyword === 'ARG')?.args).toBe('NODE_IMAGE=node:24-slim');
    expect(built.length).toBeGreaterThanOrEqual(2);
    for (const stage of built) expect(stage[0]?.args).toMatch(/^\$\{NODE_IMAGE\}( AS \w+)?$/);
    const installs = instructions.filter((i) => i.keyword === 'RUN' && /\bnpm (install|ci)\b/.test(i.args));
    expect(installs).toHaveLength(1);
    expect(installs[0]?.args).toContain('--omit=dev');
    expect(runtime.some((i) => i.keyword === 'RUN' && /\bnpm (install|ci)\b/.test(i.args))).toBe(false);
    expect(runtime.some((i) => i.keyword === 'COPY' && i.args.startsWith('--from=deps'))).toBe(true);
  });

  test('runs as a user who is not root, from USER on to the command', () => {
    const lastUser = runtime.findLastIndex((i) => i.keyword === 'USER');
    expect(runtime[lastUser]?.args).toMatch(/^(?!root$|0$)\w+/);
    expect(runtime.findIndex((i) => i.keyword === 'CMD')).toBeGreaterThan(lastUser);
  });

  test('the data folder is a volume; the command is npm start without npm', () => {
    expect(runtimeEnv.DATA_DIR).toBeDefined();
    expect(JSON.parse(only('VOLUME'))).toContain(runtimeEnv.DATA_DIR);
    expect(JSON.parse(only('CMD'))).toEqual(packageJson.scripts.start?.split(' '));
    expect(runtimeEnv.NODE_ENV).toBe('production');
    expect(runtimeEnv.HOST).toBe('0.0.0.0');
  });

  test('HEALTHCHECK asks /api/health on the port the server listens on', () => {
    const check = only('HEALTHCHECK');
    expect(check).toMatch(/CMD \[/);
    expect(check).toMatch(/'\/api\/health'/);
    expect(check).toContain('process.env.PORT');
    expect(check).toMatch(/--timeout=\d+s/);
  });

  test('fonts for the preview pictures are installed (sharp draws their text with fontconfig)', () => {
    expect(runtime.some((i) => i.keyword === 'RUN' && i.args.includes('fonts-dejavu-core'))).toBe(true);
  });

  test('the build context leaves out this machine’s dependencies, data and secrets, not the code', () => {
    const patterns = dockerignorePatterns();
    for (const name of ['node_modules', '.data', '.env', '.git', 'dist', 'test-output'])
      expect(ignored(patterns, name), name).toBe(true);
    for (const name of ['server', 'src', 'contract', 'data', 'public', 'scripts', 'package.json'])
      expect(ignored(patterns, name), name).toBe(false);
    for (const name of ['astro.config.mjs', 'tsconfig.json', 'package-lock.json'])
      expect(ignored(patterns, name), name).toBe(false);
  });
});

/** Bare package names a folder's TypeScript and Astro files import statically. */
function importedPackages(folder: string): Set<string> {
  const packages = new Set<string>();
  const files = readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' }).filter(
    (file) => /\.(ts|tsx|astro|mjs)$/.test(file) && !file.endsWith('.d.ts'),
  );
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, folder, file), 'utf8');
    // No '(' or backtick before `from`: an `export function` whose SQL says `from '...'` is no import.
    for (const [, specifier = ''] of text.matchAll(
      /^\s*(?:import|export)\s[^'"`(]*?from\s+'([^'.][^']*)'/gm,
    )) {
      if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      const parts = specifier.split('/');
      packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? ''));
    }
  }
  return packages;
}

test('what the server, the site build and the contract import are production dependencies', () => {
  // The image has no devDependencies: one imported at start or by the site build would stop it.
  const imported = new Set(['server', 'src', 'contract'].flatMap((folder) => [...importedPackages(folder)]));
  expect(imported.size).toBeGreaterThan(10);
  imported.delete('astro:content'); // Astro's virtual modules
  const missing = [...imported].filter(
    (name) => !(name in packageJson.dependencies) && !name.startsWith('astro:'),
  );
  expect(missing).toEqual([]);
});

describe('compose.yaml (decision 051)', () => {
  const example = parseEnv(readFileSync(path.join(ROOT, 'compose.env.example'), 'utf8'));
  const { app = {}, db = {} } = compose.services;

  test('PostgreSQL on a named volume, checked before the app starts', () => {
    expect(db.image).toMatch(/^postgres:\d+/);
    const [volume, target] = (db.volumes?.[0] ?? '').split(':');
    expect(target).toBe('/var/lib/postgresql/data');
    expect(compose.volumes).toHaveProperty(volume ?? 'missing');
    expect(db.healthcheck?.test).toContain('pg_isready');
    expect(app.depends_on?.db?.condition).toBe('service_healthy');
  });

  test('the app is this Dockerfile, its data folder a named volume at DATA_DIR', () => {
    expect(app.build).toBe('.');
    expect(app.init).toBe(true);
    const [volume, target] = (app.volumes?.[0] ?? '').split(':');
    expect(compose.volumes).toHaveProperty(volume ?? 'missing');
    expect(target).toBe(runtimeEnv.DATA_DIR);
    expect(app.ports?.[0]).toMatch(new RegExp(`^127\\.0\\.0\\.1:.*:${runtimeEnv.PORT}$`));
  });

  test('secrets come from the env file; the example needs only to be filled in', () => {
    expect([app.env_file].flat()).toEqual(['.env']);
    for (const name of ['POSTGRES_PASSWORD', 'SESSION_SECRET', 'TOKEN_KEY']) expect(example[name]).toBe('');
    expect(() => interpolate(db.environment?.POSTGRES_PASSWORD ?? '', {})).toThrow('POSTGRES_PASSWORD');
  });

  test('with the example filled in, the server starts in production on the compose PostgreSQL', () => {
    const filled: Record<string, string> = {
      ...example,
      POSTGRES_PASSWORD: 'pw4tests',
      SESSION_SECRET: 'a'.repeat(64),
      TOKEN_KEY: 'b'.repeat(64),
      THREADS_APP_ID: '1234',
      THREADS_APP_SECRET: 'c'.repeat(32),
    };
    const environment = Object.fromEntries(
      Object.entries(app.environment ?? {}).map(([name, value]) => [name, interpolate(value, filled)]),
    );
    const config = loadConfig({ ...runtimeEnv, ...filled, ...environment }, '/app');
    expect(config.env).toBe('production');
    expect(config.dataDir).toBe(runtimeEnv.DATA_DIR);
    const url = new URL(config.databaseUrl ?? '');
    expect(url.hostname).toBe('db');
    expect(url.hostname in compose.services).toBe(true);
    expect(url.pathname.slice(1)).toBe(db.environment?.POSTGRES_DB);
    expect(url.username).toBe(db.environment?.POSTGRES_USER);
    expect(url.password).toBe('pw4tests');
  });
});
