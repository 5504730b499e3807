/**
 * What every `npm run admin` command shares: the errors that end a run, the database it opens, how
 * it finds a user and how it prints.
 */
import { loadConfig, type Config } from '../../server/config.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/client.ts';
import { acquirePidLock } from '../../server/db/pid-lock.ts';
import type { User, UsersRepository } from '../../server/repositories/users.ts';

export const HELP_HINT = 'Run npm run admin -- --help.';

/** The command line is wrong: one line naming the problem, the help hint, exit 2. */
export class UsageError extends Error {}

/** The command was understood but cannot be done (no such user, already decided): exit 1. */
export class Refusal extends Error {}

/**
 * What a run reads and where it writes: the process's own environment and streams from the command
 * line, a test's in its own process (tests/integration/helpers/admin-cli.ts).
 */
export interface AdminIo {
  /** The environment the configuration is read from. */
  env: NodeJS.ProcessEnv;
  /** One line of output (data or a message), on stdout. */
  stdout(line: string): void;
  /** One line on stderr; an unexpected error is passed whole, so its stack is shown. */
  stderr(line: unknown): void;
}

export interface Invocation {
  /** The positional arguments after the command's own words. */
  args: string[];
  json: boolean;
  /** `--force`, for the commands that take it (restore). */
  force: boolean;
  io: AdminIo;
}

export interface Command {
  /** One or two words, e.g. `users` or `sessions revoke`. */
  name: string;
  /** Placeholders of the positional arguments, e.g. `<user>`. */
  params: string[];
  summary: string;
  /** Whether `--json` applies (the output is data). */
  json?: boolean;
  /** Whether `--force` applies (the command refuses to replace data without it). */
  force?: boolean;
  /** Resolves to the exit code when a command has one of its own (check-live); to anything else for 0. */
  run(invocation: Invocation): Promise<unknown>;
}

export interface Session {
  config: Config;
  database: DatabaseHandle;
}

/**
 * Runs `work` on the configured database, migrated. On the embedded database it takes the data
 * folder's lock first: PGlite is single-process, so a running server must not be writing there.
 */
export async function withDatabase<T>(
  env: NodeJS.ProcessEnv,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const config = loadConfig(env);
  const lock = config.databaseUrl ? null : await acquirePidLock(config.dataDir);
  try {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      await database.migrate();
      return await work({ config, database });
    } finally {
      await database.close();
    }
  } finally {
    await lock?.release();
  }
}

/**
 * The one user `target` names: `@username`/`username` (without regard to case) or
 * `id:<threads-user-id>`. `unknownName` is the refusal for a username nobody signed in with.
 */
export async function findUser(
  users: UsersRepository,
  target: string,
  unknownName = (name: string) => `No user @${name} has signed in.`,
): Promise<User> {
  if (target.startsWith('id:')) {
    const user = await users.findByThreadsUserId(target.slice(3));
    if (!user) throw new Refusal(`No user with Threads user id ${target.slice(3)} has signed in.`);
    return user;
  }
  const name = target.replace(/^@/, '');
  const found = await users.findByThreadsUsername(name);
  if (found.length === 0) throw new Refusal(unknownName(name));
  // A Threads username can change hands: never guess which person is meant.
  if (found.length > 1) {
    const ids = found.map((user) => user.threadsUserId).join(', ');
    throw new Refusal(
      `Several accounts have signed in as @${name} (Threads user ids ${ids}); run again with id:<threads-user-id>.`,
    );
  }
  return found[0] as User;
}

/** Prints rows as columns padded to their widest cell, under a header row. */
export function printTable(io: AdminIo, header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  for (const row of [header, ...rows]) {
    io.stdout(
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  '),
    );
  }
}

/** Prints data for scripts: the JSON document and nothing else on stdout. */
export function printJson(io: AdminIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2));
}
