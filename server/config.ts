import path from 'node:path';
import { z } from 'zod';
import { ApiBaseUrlSchema, apiOriginFor, hasCredentials } from './api-base-url.ts';

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
  API_BASE_URL: ApiBaseUrlSchema.optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SITE_DIR: z.string().default('dist'),
  SERVE_SITE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
  /** Default: DATA_DIR/catalogue. */
  CATALOGUE_DIR: z.string().optional(),
  SAMPLE_CATALOGUE_DIR: z.string().default('data'),
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
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_KEY: z
    .string()
    .regex(/^([0-9a-f]{64}|[A-Za-z0-9+/]{43}=)$/i, 'must be 32 bytes as 64 hex digits or base64')
    .optional(),
  ADMIN_THREADS_USERNAMES: z.string().optional(),
  RATE_LIMIT_MULTIPLIER: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(1),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(600, 'must be at most 600')
    .default(30),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (no cap) or more')
    .max(100_000, 'must be at most 100000')
    .default(128),
  ALLOWED_THREADS_USERNAMES: z.string().optional(),
  CURATION_KEYWORDS: z.string().optional(),
  CURATION_TAGS: z.string().optional(),
  CURATOR_THREADS_USERNAME: z.string().optional(),
  CURATION_SEARCH_BUDGET: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 to 2200')
    .max(2200, 'must be at most 2200 (the Threads quota per user per 24 hours)')
    .default(2000),
  DEPLOY_HOOK_URL: z
    .url({ protocol: /^https?$/, error: "must be an https URL (a build hook such as Netlify's)" })
    .optional(),
  DEPLOY_COMMAND: z.string().optional(),
});

/** Design-focused defaults for what the curation searches. */
export const DEFAULT_CURATION_KEYWORDS = ['design system', 'typography', 'accessibility', 'ux research'];
export const DEFAULT_CURATION_TAGS = ['UXDesign', 'DesignSystems', 'Typography', 'UIDesign'];

/** A comma-separated list, trimmed, empty entries dropped. */
function plainList(value: string | undefined, fallback: string[]): string[] {
  if (value === undefined) return fallback;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A comma-separated list of Threads usernames, compared without case and without a leading @. */
function usernameList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((name) => name.trim().replace(/^@/, '').toLowerCase())
    .filter(Boolean);
}

/** TOKEN_KEY as bytes: 64 hex digits or base64 of 32 bytes. */
function keyBytes(value: string): Buffer {
  return Buffer.from(value, /^[0-9a-f]{64}$/i.test(value) ? 'hex' : 'base64');
}

export type ThreadsMode = 'live' | 'simulated';

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: URL;
  /** API_BASE_URL's origin: where the pages call the API (CORS for PUBLIC_URL); undefined: their own. */
  apiBaseUrl: string | undefined;
  /** True when the public origin is https: cookies get `Secure`/`__Host-`, responses get HSTS. */
  secure: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  siteDir: string;
  /** False for the API behind `npm run dev`: Astro's dev server serves the pages, we serve /api and /data. */
  serveSite: boolean;
  /** The public catalogue the server exports, serves at /data and builds the home page from. */
  catalogueDir: string;
  /** The committed sample catalogue, published while no thread is approved. */
  sampleCatalogueDir: string;
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
  /** From the environment; when absent (development only) they are generated into DATA_DIR (secrets.ts). */
  secrets: { sessionSecret: string | undefined; tokenKey: Buffer | undefined };
  /** Lower-case Threads usernames that are admins (plus users granted by the admin CLI). */
  adminUsernames: string[];
  /** When not empty, only these Threads usernames may sign in. */
  allowedUsernames: string[];
  /** Scales every rate limit (tests and load runs raise it). */
  rateLimitMultiplier: number;
  connections: {
    /** How long a request (headers and body) may take to arrive before it is answered 408. */
    requestTimeoutMs: number;
    /** Open connections one remote address may hold; 0: no cap. */
    maxPerAddress: number;
  };
  curation: {
    keywords: string[];
    /** Topic tags, without '#'. */
    tags: string[];
    /** Whose token searches; null: the first admin with a working token. */
    curatorUsername: string | null;
    /** Searches per rolling 24 hours this product may spend of the curator's 2,200. */
    searchBudget: number;
  };
  /** Rebuild triggers for a site hosted elsewhere (site-deploy.ts); both secrets, never logged. */
  deploy: {
    /** POSTed once per burst of catalogue or profile changes. */
    hookUrl: URL | undefined;
    /** Run through /bin/sh once per burst, never two at once. */
    command: string | undefined;
  };
}

/** Variables whose values may hold credentials: never echoed back in an error message. */
const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'THREADS_APP_SECRET',
  'SESSION_SECRET',
  'TOKEN_KEY',
  // Build hooks carry their token in the URL; a command may carry one too.
  'DEPLOY_HOOK_URL',
  'DEPLOY_COMMAND',
]);

/** Raised for a bad environment; the message lists every bad variable in plain words. */
export class ConfigError extends Error {
  override name = 'ConfigError';
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
function checkFolders(folders: Record<string, string>, projectRoot: string): void {
  const problems: string[] = [];
  const entries = Object.entries(folders);
  entries.forEach(([nameA, dirA], index) => {
    for (const [nameB, dirB] of entries.slice(index + 1)) {
      const allowed = nameA === 'CATALOGUE_DIR' && nameB === 'DATA_DIR' && inside(dirA, dirB);
      if (overlaps(dirA, dirB) && !allowed)
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
        present[name] === undefined || SECRET_VARIABLES.has(name) || hasCredentials(present[name])
          ? ''
          : ` (got "${present[name]}")`;
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

  if (e.NODE_ENV === 'production' && (!e.SESSION_SECRET || !e.TOKEN_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  NODE_ENV=production needs SESSION_SECRET and TOKEN_KEY (generate them with: openssl rand -hex 32). They are only generated automatically in development.',
    );
  }

  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const siteDir = path.resolve(cwd, e.SITE_DIR);
  const catalogueDir = e.CATALOGUE_DIR ? path.resolve(cwd, e.CATALOGUE_DIR) : path.join(dataDir, 'catalogue');
  const sampleCatalogueDir = path.resolve(cwd, e.SAMPLE_CATALOGUE_DIR);
  checkFolders(
    {
      SITE_DIR: siteDir,
      CATALOGUE_DIR: catalogueDir,
      DATA_DIR: dataDir,
      SAMPLE_CATALOGUE_DIR: sampleCatalogueDir,
    },
    cwd,
  );

  const deployHookUrl = e.DEPLOY_HOOK_URL ? new URL(e.DEPLOY_HOOK_URL) : undefined;
  if (deployHookUrl && deployHookUrl.protocol !== 'https:' && !isLoopback(deployHookUrl.hostname)) {
    // The URL is the credential: plain http would send it in clear across the network.
    throw new ConfigError(
      'Invalid configuration:\n  DEPLOY_HOOK_URL must use https (plain http is allowed only to a loopback address such as 127.0.0.1).',
    );
  }

  const publicUrl = new URL(
    e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`,
  );
  const api = apiOriginFor(e.API_BASE_URL, publicUrl);
  if ('problem' in api) throw new ConfigError(`Invalid configuration:\n  API_BASE_URL: ${api.problem}`);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    apiBaseUrl: api.origin,
    secure: publicUrl.protocol === 'https:',
    dataDir,
    databaseUrl: e.DATABASE_URL,
    siteDir,
    serveSite: e.SERVE_SITE === 'true',
    catalogueDir,
    sampleCatalogueDir,
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
    secrets: { sessionSecret: e.SESSION_SECRET, tokenKey: e.TOKEN_KEY ? keyBytes(e.TOKEN_KEY) : undefined },
    // In simulated mode anyone can sign in as any name: `admin` is the admin unless the list says otherwise.
    adminUsernames:
      e.ADMIN_THREADS_USERNAMES === undefined && mode === 'simulated'
        ? ['admin']
        : usernameList(e.ADMIN_THREADS_USERNAMES),
    allowedUsernames: usernameList(e.ALLOWED_THREADS_USERNAMES),
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    connections: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      maxPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    },
    curation: {
      keywords: plainList(e.CURATION_KEYWORDS, DEFAULT_CURATION_KEYWORDS),
      tags: plainList(e.CURATION_TAGS, DEFAULT_CURATION_TAGS).map((tag) => tag.replace(/^#/, '')),
      curatorUsername: e.CURATOR_THREADS_USERNAME?.trim().replace(/^@/, '').toLowerCase() || null,
      searchBudget: e.CURATION_SEARCH_BUDGET,
    },
    deploy: { hookUrl: deployHookUrl, command: e.DEPLOY_COMMAND?.trim() },
  };
}
