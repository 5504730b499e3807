import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { ChannelListener, ListenTiming } from '../db/listen-connection.ts';
import type { ContentChange } from '../services/content-change.ts';

/** Where a change was made: on this instance, or on another one (it came through PostgreSQL). */
export interface ChangeOrigin {
  local: boolean;
}

type Listener = (change: ContentChange, origin: ChangeOrigin) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** Announces a committed change to public content (call it after the transaction, never inside). */
    contentChanged(change: ContentChange): void;
    /**
     * Runs `listener` after every announced change, this instance's and (on PostgreSQL) every other
     * instance's: cache invalidation, site rebuilds. `origin.local` says which.
     */
    onContentChanged(listener: Listener): void;
    /** True while changes from other instances arrive (always false on PGlite: there are none). */
    hearsOtherInstances(): boolean;
  }
}

/** The one channel all instances of a database speak on. */
export const CONTENT_CHANGES_CHANNEL = 'curated_threads_content_changes';

// A record, so a new kind of ContentChange that is not listed here fails to compile.
const EVERY_CHANGE: Record<ContentChange, true> = { profiles: true, threads: true, decisions: true };
const CHANGES = Object.keys(EVERY_CHANGE) as [ContentChange, ...ContentChange[]];

/** The notice another instance acts on; `origin` names the sender so it can skip its own. */
export function contentChangeNotice(change: ContentChange, origin: string): string {
  return JSON.stringify({ change, origin });
}

/** What travels between instances: the change, and which instance sent it (so it skips its own). */
const NoticeSchema = z.object({ change: z.enum(CHANGES), origin: z.string().min(1).max(100) });

export interface ContentChangesOptions {
  /** Reconnect and check timing of the listening connection (tests shorten it). */
  listen?: ListenTiming;
}

/**
 * A small bus between the routes that write public content and what depends on it, so a route does
 * not need to know about caches and the site publisher. On PostgreSQL it spans instances: a change
 * is also sent with pg_notify, and every instance LISTENs on one connection of its own and runs its
 * listeners for the others' changes, within a second or two. While that connection is down, other
 * instances' changes reach us only as the caches expire (their short TTLs); after it comes back the
 * listeners run once for every kind of change, as notices may have been missed.
 */
const contentChanges: FastifyPluginAsync<ContentChangesOptions> = async (app, options) => {
  const instance = randomUUID();
  const listeners: Listener[] = [];
  const { database } = app;

  const run = (change: ContentChange, origin: ChangeOrigin) => {
    for (const listener of listeners) {
      try {
        listener(change, origin);
      } catch (error) {
        // The write has been committed: a failing listener must not turn it into an error answer.
        app.log.error({ err: error, change }, 'a content change listener failed');
      }
    }
  };

  app.decorate('onContentChanged', (listener: Listener) => {
    listeners.push(listener);
  });
  // Notices on their way: a closing app (the CLI right after its run) waits for them.
  const sending = new Set<Promise<void>>();
  app.decorate('contentChanged', (change: ContentChange) => {
    run(change, { local: true });
    const notice = database.notify?.(CONTENT_CHANGES_CHANNEL, contentChangeNotice(change, instance));
    if (!notice) return;
    const sent: Promise<void> = notice
      .catch((error: unknown) =>
        app.log.warn(
          { err: error, change },
          'other instances were not told of a change (their caches expire)',
        ),
      )
      .finally(() => sending.delete(sent));
    sending.add(sent);
  });

  let channel: ChannelListener | null = null;
  app.decorate('hearsOtherInstances', () => channel?.listening() ?? false);
  app.addHook('onClose', async () => {
    await Promise.all(sending);
    await channel?.close();
  });
  const listen = database.listen;
  if (!listen) return;
  app.addHook('onReady', async () => {
    channel = listen(
      CONTENT_CHANGES_CHANNEL,
      {
        onMessage(payload) {
          let notice;
          try {
            notice = NoticeSchema.safeParse(JSON.parse(payload));
          } catch {
            notice = undefined;
          }
          if (!notice?.success) {
            app.log.warn('an unreadable content change notice was ignored');
            return;
          }
          if (notice.data.origin !== instance) run(notice.data.change, { local: false });
        },
        onListening(again) {
          if (!again) return;
          app.log.info('listening for other instances’ changes again');
          for (const change of CHANGES) run(change, { local: false });
        },
        onDisconnected(error) {
          app.log.warn({ err: error }, 'not hearing other instances’ changes; retrying');
        },
      },
      options.listen,
    );
    // The server starts listening with the channel in place (or known to be down), not before.
    await channel.ready;
  });
};

export default fp(contentChanges, { name: 'content-changes', dependencies: ['database'] });
