/**
 * Checks across variables, and the values they and the Config share (the Threads mode, the public
 * origin, the folders). Each problem is one whole sentence naming its variables.
 */
import path from 'node:path';
import { apiOriginFor } from './api-base-url.ts';
import type { Env, ThreadsMode } from './env-schema.ts';

/** A check across variables: it runs only when each variable it reads passed its own checks. */
export interface CrossCheck {
  variables: (keyof Env)[];
  problems: (env: Env) => string[];
}

/** THREADS_MODE, or live when a Threads app is set and simulated otherwise. */
export function threadsMode(e: Env): ThreadsMode {
  return (
    e.THREADS_MODE ??
    (e.THREADS_APP_ID !== undefined && e.THREADS_APP_SECRET !== undefined ? 'live' : 'simulated')
  );
}

/** PUBLIC_URL, or the address the server listens on. */
export function publicUrlOf(e: Env): URL {
  return new URL(e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`);
}

/** The folders as absolute paths, named by their variables (the order the overlap check reports in). */
export function foldersOf(e: Env, cwd: string) {
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  return {
    SITE_DIR: path.resolve(cwd, e.SITE_DIR),
    CATALOGUE_DIR: e.CATALOGUE_DIR ? path.resolve(cwd, e.CATALOGUE_DIR) : path.join(dataDir, 'catalogue'),
    DATA_DIR: dataDir,
    SAMPLE_CATALOGUE_DIR: path.resolve(cwd, e.SAMPLE_CATALOGUE_DIR),
  };
}

/** localhost, 127.0.0.0/8 or ::1: a hook on this machine (a local receiver, the tests). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function inside(inner: string, outer: string): boolean {
  return inner.startsWith(outer + path.sep);
}

function overlaps(a: string, b: string): boolean {
  return a === b || inside(a, b) || inside(b, a);
}

/**
 * Folders that must stay apart: the site build empties SITE_DIR, DATA_DIR holds the database, and
 * the export rewrites CATALOGUE_DIR (which may live inside DATA_DIR, as it does by default).
 */
function folderProblems(folders: Record<string, string>, projectRoot: string): string[] {
  const problems: string[] = [];
  const entries = Object.entries(folders);
  entries.forEach(([nameA, dirA], index) => {
    for (const [nameB, dirB] of entries.slice(index + 1)) {
      const allowed = nameA === 'CATALOGUE_DIR' && nameB === 'DATA_DIR' && inside(dirA, dirB);
      if (overlaps(dirA, dirB) && !allowed)
        problems.push(`${nameA} and ${nameB} must be separate folders (${dirA}, ${dirB})`);
    }
  });
  const site = folders.SITE_DIR;
  if (site && (site === projectRoot || projectRoot.startsWith(site + path.sep))) {
    problems.push(`SITE_DIR must not contain the project (${site}): the site build empties it`);
  }
  return problems;
}

/**
 * BACKUP_DIR must survive what rewrites other folders: the site build empties SITE_DIR, the export
 * rewrites CATALOGUE_DIR, and a restore moves DATA_DIR's database aside (decision 050).
 */
function backupDirProblems(e: Env, cwd: string): string[] {
  if (!e.BACKUP_DIR) return [];
  const backups = path.resolve(cwd, e.BACKUP_DIR);
  const folders = foldersOf(e, cwd);
  const clashes: string[] = [];
  for (const name of ['SITE_DIR', 'CATALOGUE_DIR'] as const) {
    if (overlaps(backups, folders[name])) clashes.push(`${name} (${folders[name]})`);
  }
  // Inside DATA_DIR is fine (the default, DATA_DIR/backups); DATA_DIR itself or a parent of it is not.
  if (backups === folders.DATA_DIR || inside(folders.DATA_DIR, backups))
    clashes.push(`DATA_DIR (${folders.DATA_DIR})`);
  return clashes.map((clash) => `BACKUP_DIR (${backups}) must be apart from ${clash}.`);
}

/** Every check across variables, for a project at cwd (relative folders resolve against it). */
export function crossChecks(cwd: string): CrossCheck[] {
  const threadsApp = ['THREADS_APP_ID', 'THREADS_APP_SECRET'] as const;
  return [
    {
      variables: [...threadsApp],
      problems: (e) =>
        (e.THREADS_APP_ID === undefined) !== (e.THREADS_APP_SECRET === undefined)
          ? ['THREADS_APP_ID and THREADS_APP_SECRET must be set together.']
          : [],
    },
    {
      variables: ['THREADS_MODE', ...threadsApp],
      problems: (e) =>
        e.THREADS_MODE === 'live' && (e.THREADS_APP_ID === undefined || e.THREADS_APP_SECRET === undefined)
          ? ['THREADS_MODE=live needs THREADS_APP_ID and THREADS_APP_SECRET.']
          : [],
    },
    {
      variables: ['NODE_ENV', 'THREADS_MODE', ...threadsApp],
      problems: (e) =>
        e.NODE_ENV === 'production' && threadsMode(e) === 'simulated' && e.THREADS_MODE !== 'simulated'
          ? [
              'NODE_ENV=production without a Threads app: set THREADS_APP_ID and THREADS_APP_SECRET, or THREADS_MODE=simulated to run the simulated provider on purpose.',
            ]
          : [],
    },
    {
      variables: ['DATABASE_URL', 'DATABASE_LISTEN_URL'],
      problems: (e) =>
        e.DATABASE_LISTEN_URL !== undefined && e.DATABASE_URL === undefined
          ? ['DATABASE_LISTEN_URL is for PostgreSQL: set DATABASE_URL too, or unset DATABASE_LISTEN_URL.']
          : [],
    },
    {
      variables: ['NODE_ENV', 'SERVE_SITE', 'DEV_PAGES_URL'],
      problems: (e) =>
        e.DEV_PAGES_URL !== undefined && (e.NODE_ENV === 'production' || e.SERVE_SITE === 'true')
          ? ['DEV_PAGES_URL is for npm run dev: it needs SERVE_SITE=false and is refused in production.']
          : [],
    },
    {
      variables: ['NODE_ENV', 'SIMULATED_CONTROLS'],
      problems: (e) =>
        e.NODE_ENV === 'production' && e.SIMULATED_CONTROLS === 'true'
          ? [
              'SIMULATED_CONTROLS=true is for the test suites: it lets anyone inject faults; not in production.',
            ]
          : [],
    },
    {
      variables: ['NODE_ENV', 'SESSION_SECRET', 'TOKEN_KEY'],
      problems: (e) =>
        e.NODE_ENV === 'production' && (!e.SESSION_SECRET || !e.TOKEN_KEY)
          ? [
              'NODE_ENV=production needs SESSION_SECRET and TOKEN_KEY (generate them with: openssl rand -hex 32). They are only generated automatically in development.',
            ]
          : [],
    },
    {
      variables: ['SITE_DIR', 'CATALOGUE_DIR', 'DATA_DIR', 'SAMPLE_CATALOGUE_DIR'],
      problems: (e) => folderProblems(foldersOf(e, cwd), cwd),
    },
    {
      variables: ['BACKUP_DIR', 'SITE_DIR', 'CATALOGUE_DIR', 'DATA_DIR'],
      problems: (e) => backupDirProblems(e, cwd),
    },
    {
      variables: ['DEPLOY_HOOK_URL'],
      problems: (e) => {
        const hook = e.DEPLOY_HOOK_URL ? new URL(e.DEPLOY_HOOK_URL) : undefined;
        // The URL is the credential: plain http would send it in clear across the network.
        return hook && hook.protocol !== 'https:' && !isLoopback(hook.hostname)
          ? [
              'DEPLOY_HOOK_URL must use https (plain http is allowed only to a loopback address such as 127.0.0.1).',
            ]
          : [];
      },
    },
    {
      variables: ['API_BASE_URL', 'PUBLIC_URL', 'HOST', 'PORT'],
      problems: (e) => {
        const api = apiOriginFor(e.API_BASE_URL, publicUrlOf(e));
        return 'problem' in api ? [`API_BASE_URL: ${api.problem}`] : [];
      },
    },
  ];
}
