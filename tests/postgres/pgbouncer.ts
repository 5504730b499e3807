import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port.ts';

/** Debian's PgBouncer (package `pgbouncer`; .ci/run installs it). */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `databaseUrl` with its host and port replaced by the pooler's. */
  url(databaseUrl: string): string;
  /** Everything PgBouncer logged so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in transaction pooling mode (what managed PostgreSQL offers in front of the
 * database) on a free loopback port, forwarding every database to the server of `databaseUrl`,
 * with trust authentication from a userlist of its own. Waits, up to a bound, until it accepts
 * connections. It refuses to run as root, so as root it drops to the `postgres` user.
 */
export async function startPgBouncer(databaseUrl: string): Promise<PgBouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username || 'postgres');
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-pgbouncer-'));
  const userlist = path.join(dir, 'userlist.txt');
  const ini = path.join(dir, 'pgbouncer.ini');
  await writeFile(userlist, `"${user}" ""\n`);
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${userlist}`,
      'pool_mode = transaction',
      // Few server connections for many clients: transactions of different clients share them.
      'default_pool_size = 4',
      'max_client_conn = 200',
      '',
    ].join('\n'),
  );
  // The postgres user reads the files when PgBouncer drops to it.
  await chmod(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');

  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url(databaseUrl: string) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.href;
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** True when something accepts a TCP connection on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
