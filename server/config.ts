/**
 * The environment, parsed and validated once. `configSchema` turns the raw variables into the Config
 * (its type is the schema's output), and every problem, of one variable or across several, is listed.
 */
import path from 'node:path';
import type { z } from 'zod';
import { apiOriginFor, hasCredentials } from './config/api-base-url.ts';
import { crossChecks, foldersOf, publicUrlOf, threadsMode } from './config/checks.ts';
import { EnvSchema, SECRET_VARIABLES, type Env } from './config/env-schema.ts';

export type { ThreadsMode } from './config/env-schema.ts';

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

/** The Config of a valid environment (the cross-variable checks have passed). */
function toConfig(e: Env, cwd: string) {
  const mode = threadsMode(e);
  const folders = foldersOf(e, cwd);
  const publicUrl = publicUrlOf(e);
  // The checks have passed: this is the origin, the same one they checked.
  const api = apiOriginFor(e.API_BASE_URL, publicUrl);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    /** API_BASE_URL's origin: where the pages call the API (CORS for PUBLIC_URL); undefined: their own. */
    apiBaseUrl: 'origin' in api ? api.origin : undefined,
    /** True when the public origin is https: cookies get `Secure`/`__Host-`, responses get HSTS. */
    secure: publicUrl.protocol === 'https:',
    dataDir: folders.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    /** Where LISTEN connects (content changes from other instances); a transaction pooler cannot carry it. */
    databaseListenUrl: e.DATABASE_LISTEN_URL ?? e.DATABASE_URL,
    siteDir: folders.SITE_DIR,
    /** False for the API behind `npm run dev`: Astro's dev server serves the pages, we serve /api and /data. */
    serveSite: e.SERVE_SITE === 'true',
    /** `npm run dev`: the Astro dev server, whose rendering of the thread template fills thread pages. */
    devPagesUrl: e.DEV_PAGES_URL ? new URL(e.DEV_PAGES_URL) : undefined,
    /** The public catalogue the server exports, serves at /data and builds the home page from. */
    catalogueDir: folders.CATALOGUE_DIR,
    /** The committed sample catalogue, published while no thread is approved. */
    sampleCatalogueDir: folders.SAMPLE_CATALOGUE_DIR,
    threads: {
      mode,
      appId: e.THREADS_APP_ID,
      appSecret: e.THREADS_APP_SECRET,
      authBaseUrl: e.THREADS_AUTH_BASE_URL,
      graphBaseUrl: e.THREADS_GRAPH_BASE_URL,
      /** The simulated provider's settings (simulated mode only). */
      simulated: {
        accessLevel: e.SIMULATED_ACCESS_LEVEL,
        mediaTtlSeconds: e.SIMULATED_MEDIA_TTL_SECONDS,
        controls: e.SIMULATED_CONTROLS === 'true',
      },
    },
    /** Decision 070: others' posts in public through Threads' embed, or as our cards. */
    publicPostDisplay: e.PUBLIC_POST_DISPLAY ?? (mode === 'live' ? 'embed' : 'card'),
    /** THREADS_EMBED_SCRIPT_URL; absent: Meta's, or in simulated mode the simulator's stand-in (site-options.ts). */
    embedScriptUrl: e.THREADS_EMBED_SCRIPT_URL,
    refreshIntervalMinutes: e.REFRESH_INTERVAL_MINUTES,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    logLevel: e.LOG_LEVEL,
    /** JSON lines, or readable lines through the devDependency pino-pretty (main.ts). */
    logFormat: e.LOG_FORMAT,
    contactEmail: e.CONTACT_EMAIL,
    /** From the environment; when absent (development only) they are generated into DATA_DIR (secrets.ts). */
    secrets: {
      sessionSecret: e.SESSION_SECRET,
      tokenKey: e.TOKEN_KEY ? keyBytes(e.TOKEN_KEY) : undefined,
    },
    /** Lower-case Threads usernames that are admins (plus users granted by the admin CLI). */
    adminUsernames:
      // In simulated mode anyone can sign in as any name: `admin` is the admin unless the list says otherwise.
      e.ADMIN_THREADS_USERNAMES === undefined && mode === 'simulated'
        ? ['admin']
        : usernameList(e.ADMIN_THREADS_USERNAMES),
    /** When not empty, only these Threads usernames may sign in. */
    allowedUsernames: usernameList(e.ALLOWED_THREADS_USERNAMES),
    /** Scales every rate limit (tests and load runs raise it). */
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    connections: {
      /** How long a request (headers and body) may take to arrive before it is answered 408. */
      requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      /** Open connections one remote address may hold; 0: no cap. */
      maxPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    },
    curation: {
      keywords: plainList(e.CURATION_KEYWORDS, DEFAULT_CURATION_KEYWORDS),
      /** Topic tags, without '#'. */
      tags: plainList(e.CURATION_TAGS, DEFAULT_CURATION_TAGS).map((tag) => tag.replace(/^#/, '')),
      /** Whose token searches; null: the first admin with a working token. */
      curatorUsername: e.CURATOR_THREADS_USERNAME?.trim().replace(/^@/, '').toLowerCase() || null,
      /** Searches per rolling 24 hours this product may spend of the curator's 2,200. */
      searchBudget: e.CURATION_SEARCH_BUDGET,
    },
    /** Rebuild triggers for a site hosted elsewhere (site-deploy.ts); both secrets, never logged. */
    deploy: {
      /** POSTed once per burst of catalogue or profile changes. */
      hookUrl: e.DEPLOY_HOOK_URL ? new URL(e.DEPLOY_HOOK_URL) : undefined,
      /** Run through /bin/sh once per burst, never two at once. */
      command: e.DEPLOY_COMMAND?.trim(),
    },
    /** Member changes publish (and deploy) at most once per this many minutes; 0: no cap. */
    memberPublishIntervalMinutes: e.MEMBER_PUBLISH_INTERVAL_MINUTES,
    /** Backups of the database and its secrets (decision 050). */
    backups: {
      /** Hours between scheduled backups of the embedded database; 0: none. */
      intervalHours: e.BACKUP_INTERVAL_HOURS,
      /** How many of the newest backups are kept. */
      keep: e.BACKUP_KEEP,
      dir: e.BACKUP_DIR ? path.resolve(cwd, e.BACKUP_DIR) : path.join(folders.DATA_DIR, 'backups'),
    },
    /** Outgoing mail (decision 054); `smtpUrl` is a secret when it holds a password: never logged. */
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `"Curated Threads" <digest@${publicUrl.hostname}>`,
    },
    /** The weekly digest (issue 22). */
    digest: {
      size: e.DIGEST_SIZE,
      holdHours: e.DIGEST_HOLD_HOURS,
      /** The curator's account posts each published digest's link on Threads (decision 060). */
      threadsPost: e.DIGEST_THREADS_POST === 'true',
    },
  };
}

/** The schema from the raw variables to the Config, for a project at cwd (relative folders resolve against it). */
export function configSchema(cwd: string) {
  const checked = crossChecks(cwd).reduce(
    (schema, check) =>
      schema.superRefine(
        (env, ctx) => {
          // A whole sentence at the root: it names its variables itself and echoes no value.
          for (const message of check.problems(env)) ctx.addIssue({ code: 'custom', message, path: [] });
        },
        // zod skips refinements once any variable is bad; run each unless a variable it reads is bad.
        {
          when: (payload) =>
            !payload.issues.some((issue) => check.variables.some((name) => name === issue.path?.[0])),
        },
      ),
    EnvSchema,
  );
  return checked.transform((env) => toConfig(env, cwd));
}

export type Config = z.output<ReturnType<typeof configSchema>>;

/** Raised for a bad environment; the message lists every bad variable in plain words. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** One line per problem: `NAME: reason (got "value")` for a variable, the sentence itself across variables. */
function problemLine(issue: z.core.$ZodIssue, present: Record<string, string | undefined>): string {
  if (issue.path.length === 0) return `  ${issue.message}`;
  const name = String(issue.path[0]);
  const value = present[name];
  const got =
    value === undefined || SECRET_VARIABLES.has(name) || hasCredentials(value) ? '' : ` (got "${value}")`;
  return `  ${name}: ${issue.message}${got}`;
}

/** Parses the environment once. Empty values count as unset. Throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = configSchema(cwd).safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => problemLine(issue, present));
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
