/**
 * One dedicated PostgreSQL connection that LISTENs on a channel, outside the pool: LISTEN belongs
 * to a session, so it cannot go through a transaction pooler (PgBouncer) nor through a pooled
 * connection that is handed to other queries. It reconnects with a growing, jittered delay when the
 * connection drops, and checks every few seconds that the connection still answers (a silently
 * dead TCP connection would otherwise drop notifications for ever).
 */
import pg from 'pg';

/** The application_name of every listening connection. */
export const LISTEN_APPLICATION_NAME = 'curated-threads-listen';

export interface ListenHandlers {
  /** A notification's payload on the channel (from any session, this process's included). */
  onMessage(payload: string): void;
  /** The channel is listened to; `again` after a drop (notifications may have been missed meanwhile). */
  onListening?(again: boolean): void;
  /** The connection dropped or could not be made; a retry follows. */
  onDisconnected?(error: unknown): void;
}

export interface ListenTiming {
  /** First wait before a reconnect; doubled on each failure up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How often the connection is checked with a trivial query. */
  checkEveryMs?: number;
}

export interface ChannelListener {
  /** True while the LISTEN is in place. */
  listening(): boolean;
  /** Resolves after the first attempt to listen, whether it worked or not. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Listens on `channel` through a connection of its own to `url` until closed. */
export function listenOn(
  url: string,
  channel: string,
  handlers: ListenHandlers,
  timing: ListenTiming = {},
): ChannelListener {
  const { backoffMs = 250, maxBackoffMs = 10_000, checkEveryMs = 10_000 } = timing;
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let everListened = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let check: NodeJS.Timeout | undefined;

  const dropped = (current: pg.Client, error: unknown) => {
    if (client !== current) return;
    client = null;
    const was = listening;
    listening = false;
    clearInterval(check);
    void current.end().catch(() => {});
    if (closed) return;
    if (was || failures === 0) handlers.onDisconnected?.(error);
    const delay = Math.min(maxBackoffMs, backoffMs * 2 ** failures) * (0.5 + Math.random() / 2);
    failures += 1;
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
  };

  const connect = async (): Promise<void> => {
    const current = new pg.Client({
      connectionString: url,
      // Named, so an operator sees it in pg_stat_activity (and a test can cut it).
      application_name: LISTEN_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      // The check's query fails, rather than hangs, on a connection whose server went away unseen.
      query_timeout: 5000,
    });
    client = current;
    // Without a listener an 'error' event would crash the process.
    current.on('error', (error) => dropped(current, error));
    current.on('end', () => dropped(current, new Error('the listening connection ended')));
    current.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onMessage(message.payload);
    });
    try {
      await current.connect();
      await current.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      dropped(current, error);
      return;
    }
    if (closed || client !== current) return;
    listening = true;
    failures = 0;
    handlers.onListening?.(everListened);
    everListened = true;
    check = setInterval(() => {
      current.query('select 1').catch((error: unknown) => dropped(current, error));
    }, checkEveryMs);
    check.unref();
  };

  const ready = connect();
  return {
    listening: () => listening,
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(check);
      const current = client;
      client = null;
      listening = false;
      await current?.end().catch(() => {});
    },
  };
}
