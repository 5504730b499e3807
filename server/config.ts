import path from 'node:path';
import { z } from 'zod';

const EnvSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('development'),
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 to 65535')
    .max(65535, 'must be 0 to 65535')
    .default(4321),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://curated.example' })
    .optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SITE_DIR: z.string().default('dist'),
  SERVE_SITE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
  CATALOGUE_DIR: z.string().default('data'),
  THREADS_MODE: z.enum(['live', 'simulated'], { error: 'must be live or simulated' }).optional(),
  THREADS_APP_ID: z.string().regex(/^\d+$/, 'must be the numeric Threads app id').optional(),
  THREADS_APP_SECRET: z.string().min(16, 'looks too short for a Threads app secret').optional(),
  THREADS_AUTH_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://threads.com'),
  THREADS_GRAPH_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://graph.threads.net'),
  REFRESH_INTERVAL_MINUTES: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(5, 'must be at least 5')
    .max(1440, 'must be at most 1440 (a day)')
    .default(60),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10, 'must be 0 to 10').default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CONTACT_EMAIL: z.email('must be an e-mail address').optional(),
});

export type ThreadsMode = 'live' | 'simulated';

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: URL;
  /** True when the public origin is https: cookies get `Secure`/`__Host-`, responses get HSTS. */
  secure: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  siteDir: string;
  /** False for the API behind `npm run dev`: Astro's dev server serves the pages, we serve /api and /data. */
  serveSite: boolean;
  catalogueDir: string;
  threads: {
    mode: ThreadsMode;
    appId: string | undefined;
    appSecret: string | undefined;
    authBaseUrl: string;
    graphBaseUrl: string;
  };
  refreshIntervalMinutes: number;
  trustProxyHops: number;
  logLevel: string;
  contactEmail: string | undefined;
}

/** Variables whose values may hold credentials: never echoed back in an error message. */
const SECRET_VARIABLES = new Set(['DATABASE_URL', 'THREADS_APP_SECRET']);

/** Raised for a bad environment; the message lists every bad variable in plain words. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(b + path.sep) || b.startsWith(a + path.sep);
}

/** Folders that must stay apart: the site build empties SITE_DIR, and DATA_DIR holds the database. */
function checkFolders(folders: Record<string, string>, projectRoot: string): void {
  const problems: string[] = [];
  const entries = Object.entries(folders);
  entries.forEach(([nameA, dirA], index) => {
    for (const [nameB, dirB] of entries.slice(index + 1)) {
      if (overlaps(dirA, dirB))
        problems.push(`  ${nameA} and ${nameB} must be separate folders (${dirA}, ${dirB})`);
    }
  });
  const site = folders.SITE_DIR;
  if (site && (site === projectRoot || projectRoot.startsWith(site + path.sep))) {
    problems.push(`  SITE_DIR must not contain the project (${site}): the site build empties it`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

/** Parses the environment once. Empty values count as unset. Throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const got =
        present[name] === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got "${present[name]}")`;
      return `  ${name}: ${issue.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;

  const hasApp = e.THREADS_APP_ID !== undefined && e.THREADS_APP_SECRET !== undefined;
  if ((e.THREADS_APP_ID === undefined) !== (e.THREADS_APP_SECRET === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  THREADS_APP_ID and THREADS_APP_SECRET must be set together.',
    );
  }
  const mode: ThreadsMode = e.THREADS_MODE ?? (hasApp ? 'live' : 'simulated');
  if (mode === 'live' && !hasApp) {
    throw new ConfigError(
      'Invalid configuration:\n  THREADS_MODE=live needs THREADS_APP_ID and THREADS_APP_SECRET.',
    );
  }
  if (e.NODE_ENV === 'production' && mode === 'simulated' && e.THREADS_MODE !== 'simulated') {
    throw new ConfigError(
      'Invalid configuration:\n  NODE_ENV=production without a Threads app: set THREADS_APP_ID and THREADS_APP_SECRET, or THREADS_MODE=simulated to run the simulated provider on purpose.',
    );
  }

  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const siteDir = path.resolve(cwd, e.SITE_DIR);
  const catalogueDir = path.resolve(cwd, e.CATALOGUE_DIR);
  checkFolders({ SITE_DIR: siteDir, CATALOGUE_DIR: catalogueDir, DATA_DIR: dataDir }, cwd);

  const publicUrl = new URL(
    e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`,
  );
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    secure: publicUrl.protocol === 'https:',
    dataDir,
    databaseUrl: e.DATABASE_URL,
    siteDir,
    serveSite: e.SERVE_SITE === 'true',
    catalogueDir,
    threads: {
      mode,
      appId: e.THREADS_APP_ID,
      appSecret: e.THREADS_APP_SECRET,
      authBaseUrl: e.THREADS_AUTH_BASE_URL,
      graphBaseUrl: e.THREADS_GRAPH_BASE_URL,
    },
    refreshIntervalMinutes: e.REFRESH_INTERVAL_MINUTES,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    logLevel: e.LOG_LEVEL,
    contactEmail: e.CONTACT_EMAIL,
  };
}
