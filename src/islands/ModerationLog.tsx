import '../styles/moderation.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  MODERATION_TEXTS,
  type ModerationLogEntry,
  type ModerationLogPage,
} from '../../contract/moderation-log.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import DateTime from '../components/react/DateTime.tsx';
import LoadFailed from '../components/react/LoadFailed.tsx';

/** The log as loaded: the first page loading or refused, or the entries so far and where the next page starts. */
type LogState =
  | { phase: 'loading' }
  | { phase: 'error'; message: string | undefined }
  | {
      phase: 'ready';
      entries: ModerationLogEntry[];
      next: string | null;
      more: 'idle' | 'loading' | { error: string | undefined };
    };

const detailOf = (error: unknown) =>
  error instanceof ApiRequestError ? (error.detail ?? undefined) : undefined;

function fetchPage(cursor: string | null): Promise<ModerationLogPage> {
  return api<ModerationLogPage>(
    cursor ? `/api/moderation?cursor=${encodeURIComponent(cursor)}` : '/api/moderation',
  );
}

/** One decision: the post (link, author, excerpt, tag), approved or rejected in words, when, and why. */
function Entry({ entry }: { entry: ModerationLogEntry }) {
  const rejected = entry.decision === 'rejected';
  return (
    <li className="panel moderation-entry">
      <div className="moderation-entry__head">
        <a className="moderation-entry__what" href={entry.permalink} rel="noopener noreferrer">
          {entry.handle ? `Post by ${entry.handle}` : 'Threads post'}
        </a>
        <span className={`badge badge--${rejected ? 'gray' : 'green'}`}>
          {rejected ? MODERATION_TEXTS.rejected : MODERATION_TEXTS.approved}
        </span>
      </div>
      {entry.excerpt && <p className="moderation-entry__excerpt">{entry.excerpt}</p>}
      {rejected && (
        <p className="decision-reason">
          <strong>{MODERATION_TEXTS.reason}</strong> {entry.reason ?? MODERATION_TEXTS.noReason}
        </p>
      )}
      <p className="moderation-entry__meta">
        {MODERATION_TEXTS.decided} <DateTime iso={entry.decided_at} />
        {entry.topic_tag && <> · #{entry.topic_tag}</>}
      </p>
    </li>
  );
}

/** The public moderation log: thread decisions newest first, 25 at a time with 'Load more'. */
export default function ModerationLog() {
  const [state, setState] = useState<LogState>({ phase: 'loading' });
  // One request at a time: a second click while a page loads does nothing.
  const busy = useRef(false);
  const list = useRef<HTMLOListElement>(null);
  // After the last page the button is gone: focus moves to the first entry it loaded, not to the page.
  const focusEntry = useRef<number | null>(null);

  const loadFirst = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setState({ phase: 'loading' });
    try {
      const page = await fetchPage(null);
      setState({ phase: 'ready', entries: page.entries, next: page.next_cursor, more: 'idle' });
    } catch (error) {
      setState({ phase: 'error', message: detailOf(error) });
    } finally {
      busy.current = false;
    }
  }, []);

  const loadMore = useCallback(async (cursor: string) => {
    if (busy.current) return;
    busy.current = true;
    setState((current) => (current.phase === 'ready' ? { ...current, more: 'loading' } : current));
    try {
      const page = await fetchPage(cursor);
      setState((current) => {
        if (current.phase !== 'ready') return current;
        if (!page.next_cursor) focusEntry.current = current.entries.length;
        return {
          phase: 'ready',
          entries: [...current.entries, ...page.entries],
          next: page.next_cursor,
          more: 'idle',
        };
      });
    } catch (error) {
      setState((current) =>
        current.phase === 'ready' ? { ...current, more: { error: detailOf(error) } } : current,
      );
    } finally {
      busy.current = false;
    }
  }, []);

  useEffect(() => {
    void loadFirst();
  }, [loadFirst]);

  useEffect(() => {
    if (focusEntry.current === null) return;
    list.current?.children[focusEntry.current]?.querySelector('a')?.focus();
    focusEntry.current = null;
  });

  if (state.phase === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (state.phase === 'error') {
    return (
      <LoadFailed
        title={MODERATION_TEXTS.loadFailed}
        message={state.message}
        onRetry={() => void loadFirst()}
      />
    );
  }
  if (state.entries.length === 0) return <p role="status">{MODERATION_TEXTS.empty}</p>;
  const { entries, next, more } = state;
  const count = entries.length;
  return (
    <>
      <ol className="moderation-log" ref={list}>
        {entries.map((entry) => (
          <Entry key={entry.id} entry={entry} />
        ))}
      </ol>
      <div className="moderation-more">
        <p role="status" className="field-help">
          {more === 'loading'
            ? MODERATION_TEXTS.loadingMore
            : `Showing ${count} ${count === 1 ? 'decision' : 'decisions'}${next ? '' : ', the whole log'}.`}
        </p>
        {typeof more === 'object' ? (
          <LoadFailed
            title={MODERATION_TEXTS.loadFailed}
            message={more.error}
            onRetry={() => next && void loadMore(next)}
          />
        ) : (
          next && (
            <button
              type="button"
              className="button"
              aria-busy={more === 'loading'}
              disabled={more === 'loading'}
              onClick={() => void loadMore(next)}
            >
              {MODERATION_TEXTS.loadMore}
            </button>
          )
        )}
      </div>
    </>
  );
}
