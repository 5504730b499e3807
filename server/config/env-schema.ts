/** The raw environment variables: each one's own checks and default, before the cross-variable checks. */
import { z } from 'zod';
import { ApiBaseUrlSchema } from './api-base-url.ts';

/** A whole number within bounds, with a message for each bound. */
function wholeNumber(bounds: { min: [number, string]; max: [number, string]; default: number }) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(...bounds.min)
    .max(...bounds.max)
    .default(bounds.default);
}

export const ThreadsModeSchema = z.enum(['live', 'simulated'], { error: 'must be live or simulated' });
export type ThreadsMode = z.output<typeof ThreadsModeSchema>;

export const EnvSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('development'),
  PORT: wholeNumber({ min: [0, 'must be 0 to 65535'], max: [65535, 'must be 0 to 65535'], default: 4321 }),
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
  /**
   * Where each instance LISTENs for other instances' changes (default: DATABASE_URL). Must reach
   * PostgreSQL directly or through a session pooler: LISTEN does not work through a transaction pooler.
   */
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SITE_DIR: z.string().default('dist'),
  SERVE_SITE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
  /**
   * With SERVE_SITE=false, the origin of a dev server rendering the pages (`npm run dev` sets it):
   * thread pages are filled from its rendering of their template. Refused in production.
   */
  DEV_PAGES_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Default: DATA_DIR/catalogue. */
  CATALOGUE_DIR: z.string().optional(),
  SAMPLE_CATALOGUE_DIR: z.string().default('data'),
  THREADS_MODE: ThreadsModeSchema.optional(),
  /**
   * How the public sees others' posts (decision 070): Threads' embed, or our cards. Default: embed in
   * live mode (Meta lets API content be shown only to its author), card in simulated mode.
   */
  PUBLIC_POST_DISPLAY: z.enum(['embed', 'card'], { error: 'must be embed or card' }).optional(),
  /** Where the pages load Threads' embed script from (tests point it at the simulator's stand-in). */
  THREADS_EMBED_SCRIPT_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  THREADS_APP_ID: z.string().regex(/^\d+$/, 'must be the numeric Threads app id').optional(),
  THREADS_APP_SECRET: z.string().min(16, 'looks too short for a Threads app secret').optional(),
  THREADS_AUTH_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://threads.com'),
  THREADS_GRAPH_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://graph.threads.net'),
  /** The simulated Threads app's access level (threads-api.md section 10, access levels). */
  SIMULATED_ACCESS_LEVEL: z
    .enum(['standard', 'advanced'], { error: 'must be standard or advanced' })
    .default('advanced'),
  /** How long the simulated provider's media URLs work (Meta's stop within hours). */
  SIMULATED_MEDIA_TTL_SECONDS: wholeNumber({
    min: [1, 'must be at least 1'],
    max: [7 * 86_400, 'must be at most 604800 (a week)'],
    default: 6 * 3600,
  }),
  /**
   * Mounts the simulated provider's test controls (fault injection, its clock): for the test suites
   * only, refused in production.
   */
  SIMULATED_CONTROLS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  REFRESH_INTERVAL_MINUTES: wholeNumber({
    min: [5, 'must be at least 5'],
    max: [1440, 'must be at most 1440 (a day)'],
    default: 60,
  }),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10, 'must be 0 to 10').default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json`: one JSON object a line (for log collectors); `pretty`: readable lines (`npm run dev`). */
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).default('json'),
  CONTACT_EMAIL: z.email('must be an e-mail address').optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_KEY: z
    .string()
    .regex(/^([0-9a-f]{64}|[A-Za-z0-9+/]{43}=)$/i, 'must be 32 bytes as 64 hex digits or base64')
    .optional(),
  ADMIN_THREADS_USERNAMES: z.string().optional(),
  RATE_LIMIT_MULTIPLIER: wholeNumber({
    min: [1, 'must be at least 1'],
    max: [10_000, 'must be at most 10000'],
    default: 1,
  }),
  REQUEST_TIMEOUT_SECONDS: wholeNumber({
    min: [1, 'must be at least 1'],
    max: [600, 'must be at most 600'],
    default: 30,
  }),
  MAX_CONNECTIONS_PER_ADDRESS: wholeNumber({
    min: [0, 'must be 0 (no cap) or more'],
    max: [100_000, 'must be at most 100000'],
    default: 128,
  }),
  ALLOWED_THREADS_USERNAMES: z.string().optional(),
  CURATION_KEYWORDS: z.string().optional(),
  CURATION_TAGS: z.string().optional(),
  CURATOR_THREADS_USERNAME: z.string().optional(),
  CURATION_SEARCH_BUDGET: wholeNumber({
    min: [0, 'must be 0 to 2200'],
    max: [2200, 'must be at most 2200 (the Threads quota per user per 24 hours)'],
    default: 2000,
  }),
  DEPLOY_HOOK_URL: z
    .url({ protocol: /^https?$/, error: "must be an https URL (a build hook such as Netlify's)" })
    .optional(),
  DEPLOY_COMMAND: z.string().optional(),
  /**
   * Member actions (gems, profile edits, approved invites) publish the site, and run the deploy
   * triggers, at most once per this many minutes; approvals are not held back. 0: no cap.
   */
  MEMBER_PUBLISH_INTERVAL_MINUTES: wholeNumber({
    min: [0, 'must be 0 (no cap) or more'],
    max: [1440, 'must be at most 1440 (a day)'],
    default: 5,
  }),
  /** Hours between the scheduled backups of the embedded database (decision 050); 0: none. */
  BACKUP_INTERVAL_HOURS: wholeNumber({
    min: [0, 'must be 0 (no scheduled backups) or more'],
    max: [720, 'must be at most 720 (30 days)'],
    default: 24,
  }),
  /** How many backups the backup folder keeps: the newest; older ones are removed after each backup. */
  BACKUP_KEEP: wholeNumber({
    min: [1, 'must be at least 1'],
    max: [1000, 'must be at most 1000'],
    default: 7,
  }),
  /** Where backups are written. Default: DATA_DIR/backups. */
  BACKUP_DIR: z.string().optional(),
  /**
   * The SMTP server the digest and notices are mailed through (decision 054), e.g.
   * smtps://user:password@smtp.example:465. Unset: no mail; the digest page and feed still work.
   * A secret when it holds a password: never logged.
   */
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^/?#]+/,
      'must be an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example:465',
    )
    .optional(),
  /** The sender of every mail. Default: "Curated Threads" <digest@PUBLIC_URL's host>. */
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
      'must be an address, or a name and <address>',
    )
    .optional(),
  /** How many threads a weekly digest holds at most. */
  DIGEST_SIZE: wholeNumber({ min: [1, 'must be at least 1'], max: [50, 'must be at most 50'], default: 10 }),
  /** Hours after its week ends before a digest is published and mailed: the admin's time to trim it. */
  DIGEST_HOLD_HOURS: wholeNumber({
    min: [0, 'must be 0 (at once) or more'],
    max: [144, 'must be at most 144 (six days)'],
    default: 24,
  }),
  /** Whether the curator's account posts each published digest's link on Threads (decision 060). */
  DIGEST_THREADS_POST: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
});

export type Env = z.output<typeof EnvSchema>;

/** Variables whose values may hold credentials: never echoed back in an error message. */
export const SECRET_VARIABLES = new Set<string>([
  'DATABASE_URL',
  'DATABASE_LISTEN_URL',
  'THREADS_APP_SECRET',
  'SESSION_SECRET',
  'TOKEN_KEY',
  // Build hooks carry their token in the URL; a command may carry one too.
  'DEPLOY_HOOK_URL',
  'DEPLOY_COMMAND',
]);
