/**
 * The admin CLI's command line, parsed and dispatched (README, "Administration"); each group of
 * commands lives beside this file. Exit codes: 0 done, 1 refused or failed (one line on stderr), 2 a
 * usage error (one line naming it, and the help hint). scripts/admin.ts runs it for `npm run admin`.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../../server/config.ts';
import { DataDirLockedError } from '../../server/db/pid-lock.ts';
import { backupCommands } from './backups.ts';
import { HELP_HINT, Refusal, UsageError, type AdminIo, type Command } from './cli.ts';
import { configCommands } from './config.ts';
import { memberCommands } from './members.ts';
import { publishCommands } from './publish.ts';
import { roleCommands } from './roles.ts';
import { sessionCommands } from './sessions.ts';

const COMMANDS: Command[] = [
  ...memberCommands,
  ...roleCommands,
  ...sessionCommands,
  ...configCommands,
  ...backupCommands,
  ...publishCommands,
];

const synopsis = (command: Command) =>
  [
    command.name,
    ...command.params,
    ...(command.force ? ['[--force]'] : []),
    ...(command.json ? ['[--json]'] : []),
  ].join(' ');

const USAGE = [
  'usage: npm run admin -- <command> [arguments] [--json]',
  '',
  'commands:',
  ...(() => {
    const rows: [string, string][] = [
      ...COMMANDS.map((command): [string, string] => [synopsis(command), command.summary]),
      ['help', 'this text (also --help, and <command> --help)'],
    ];
    const width = Math.max(...rows.map(([left]) => left.length));
    return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
  })(),
  '',
  '<user> is a Threads username (@name or name, any case) or id:<threads-user-id>; the user must',
  'have signed in once. --json prints the data as JSON on stdout and nothing else.',
  'Commands that read the database refuse while a server holds the embedded data folder',
  '(stop it, or use DATABASE_URL); backup asks the running server instead, and restore',
  'needs it stopped. Exit codes: 0 done, 1 refused or failed, 2 usage error.',
].join('\n');

/** The command the leading positionals name (two words first: `sessions revoke`); null: none. */
function findCommand(positionals: string[]): { command: Command; args: string[] } | null {
  for (const words of [2, 1]) {
    const name = positionals.slice(0, words).join(' ');
    const command = COMMANDS.find((candidate) => candidate.name === name);
    if (command && positionals.length >= words) return { command, args: positionals.slice(words) };
  }
  return null;
}

/** node's parseArgs messages run to several sentences; the first names the problem. */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `Unknown option ${unknown[1]}.`;
  return `${message.split('. ')[0]?.replace(/\.$/, '')}.`;
}

async function dispatch(argv: string[], io: AdminIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        force: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(parseProblem(error));
  }
  const { values, positionals } = parsed;
  const [first, ...rest] = positionals;
  if (first === undefined) {
    if (values.help) return help(io);
    throw new UsageError('No command given.');
  }
  if (first === 'help') {
    const about = findCommand(rest);
    if (rest.length > 0 && !about) throw new UsageError(`No command ${rest.join(' ')}.`);
    return help(io, about?.command);
  }
  const found = findCommand(positionals);
  if (!found) {
    const group = COMMANDS.filter((command) => command.name.startsWith(`${first} `));
    if (group.length > 0) {
      const subcommands = group.map((command) => command.name.split(' ')[1]).join(', ');
      throw new UsageError(
        rest[0] === undefined
          ? `${first} needs a subcommand (${subcommands}).`
          : `Unknown ${first} subcommand: ${rest[0]}.`,
      );
    }
    throw new UsageError(`Unknown command: ${first}.`);
  }
  const { command, args } = found;
  if (values.help) return help(io, command);
  if (values.json && !command.json) throw new UsageError(`${command.name} does not take --json.`);
  if (values.force && !command.force) throw new UsageError(`${command.name} does not take --force.`);
  if (args.length < command.params.length) {
    throw new UsageError(`${command.name} needs ${command.params.slice(args.length).join(' ')}.`);
  }
  if (args.length > command.params.length) {
    const expected = command.params.length === 0 ? 'no arguments' : command.params.join(' ');
    throw new UsageError(
      `${command.name} takes ${expected}; unexpected: ${args.slice(command.params.length).join(' ')}.`,
    );
  }
  const code = await command.run({ args, json: values.json === true, force: values.force === true, io });
  return typeof code === 'number' ? code : 0;
}

/** A configuration error lists one problem a line; a refusal is one line, so scripts can read it. */
function oneLine(message: string): string {
  const [first = '', ...rest] = message.split('\n').map((line) => line.trim());
  return rest.length === 0 ? first : `${first} ${rest.filter(Boolean).join('; ')}`;
}

function help(io: AdminIo, command?: Command): number {
  io.stdout(command ? `usage: npm run admin -- ${synopsis(command)}\n\n${command.summary}.` : USAGE);
  return 0;
}

/** Runs one command line of the admin CLI and resolves to its exit code; throws nothing. */
export async function runAdminCli(argv: string[], io: AdminIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message} ${HELP_HINT}`);
      return 2;
    }
    const known =
      error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof Refusal;
    io.stderr(known ? oneLine((error as Error).message) : error);
    return 1;
  }
}
