/** LOG_FORMAT: where the server's log lines go, JSON as they are or made readable. */

/** A destination pino writes its JSON lines to. */
export interface LogStream {
  write(line: string): void;
}

/**
 * The destination for LOG_FORMAT: undefined for `json` (pino's JSON lines on stdout, what a log
 * collector reads), or pino-pretty's readable lines for `pretty` (`npm run dev`). pino-pretty is a
 * devDependency: a production install (`npm install --omit=dev`, the container image) has none, so
 * `pretty` there says so on stderr and logs JSON rather than refusing to start.
 */
export async function logStreamFor(
  format: 'json' | 'pretty',
  destination: NodeJS.WritableStream = process.stdout,
): Promise<LogStream | undefined> {
  if (format === 'json') return undefined;
  try {
    // eslint-disable-next-line no-restricted-syntax -- a devDependency a production install lacks: a static import would stop the server there
    const { default: pretty } = await import('pino-pretty');
    // Synchronous: the last lines before a shutdown's process.exit() must not be lost in a buffer.
    return pretty({
      colorize: destination === process.stdout && Boolean(process.stdout.isTTY),
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      // One line per entry: a request's fields beside its message, not a block under it.
      singleLine: true,
      sync: true,
      destination,
    });
  } catch {
    console.error(
      'LOG_FORMAT=pretty needs pino-pretty, a devDependency that is not installed: logging JSON.',
    );
    return undefined;
  }
}
