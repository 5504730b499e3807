import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { DigestDraft } from '../../../contract/digest.ts';
import { DIGEST_DESK_TEXTS as T, draftWeekInWords, publishesInWords } from '../../../contract/digest-desk.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { ApiRequestError, detailOr } from '../../lib/api.ts';
import { $digestDesk, loadDigestDesk, trimDigest } from '../../stores/digest-desk.ts';
import DigestNoteForm from './DigestNoteForm.tsx';
import DigestThreadList from './DigestThreadList.tsx';
import LiveAlert, { useAnnouncement } from './LiveAlert.tsx';
import LoadFailed from './LoadFailed.tsx';
import '../../styles/members.css';
import '../../styles/digest-desk.css';

/** The two lists, named as their ids (a button is found by `${list}:${thread id}`). */
type ListId = 'digest-threads' | 'digest-excluded';
type Item = DigestDraft['threads'][number];

/** Subscribers and the send log, or why there is no mail. */
function MailFacts({ draft }: { draft: DigestDraft }) {
  return (
    <section className="digest-mail" aria-labelledby="digest-mail-heading">
      <h3 id="digest-mail-heading">{T.mailHeading}</h3>
      {draft.mail_enabled ? (
        <>
          <p>{T.subscribers(draft.subscribers)}</p>
          <p className="field-help">{T.mailLog(draft.mail)}</p>
        </>
      ) : (
        <p>{T.noMail}</p>
      )}
    </section>
  );
}

/** Whether the curator's account posts the digest's link on Threads, and how the last post went (decision 060). */
function ThreadsPostFacts({ post }: { post: DigestDraft['threads_post'] }) {
  const { last } = post;
  return (
    <section className="digest-mail" aria-labelledby="digest-threads-post-heading">
      <h3 id="digest-threads-post-heading">{T.threadsPostHeading}</h3>
      <p>{post.enabled ? T.threadsPostOn : T.threadsPostOff}</p>
      {last && (
        <p className="field-help">
          {T.threadsPostLast(last.digest_id, last.status)}
          {last.status === 'failed' && last.error !== null && ` ${last.error}`}
          {last.status === 'published' && last.thread_url !== null && (
            <>
              {' '}
              <a href={last.thread_url} rel="noopener noreferrer">
                {T.viewDigestPost}
              </a>
            </>
          )}
        </p>
      )}
    </section>
  );
}

/**
 * The Digest tab (issue 22, admins): the digest being prepared, its threads and those left out
 * (each moves with one button), the editor's note, and its mail. A row that moves takes the focus
 * with it to its button in the other list; a change the server refused says why in words.
 */
export default function DigestDesk() {
  const state = useStore($digestDesk);
  const { announcement, announce } = useAnnouncement();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const inFlight = useRef(new Set<string>());
  const [published, setPublished] = useState(false);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const threadsHeading = useRef<HTMLHeadingElement>(null);
  const excludedHeading = useRef<HTMLHeadingElement>(null);
  const focusAfter = useRef<{ id: string; to: ListId } | null>(null);
  const draft = state.status === 'ready' ? state.draft : null;

  // Back on the tab, what was shown stays while it reloads (another admin may have changed it).
  useEffect(() => {
    void loadDigestDesk({ quiet: $digestDesk.get().status === 'ready' });
  }, []);

  // After a move the row's old button is gone with the focus: its new button takes it, or (when the
  // thread did not come back among the week's best) the heading of the list it was sent to.
  useEffect(() => {
    const moved = focusAfter.current;
    if (!moved || !draft) return;
    focusAfter.current = null;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const heading = moved.to === 'digest-threads' ? threadsHeading.current : excludedHeading.current;
    (buttons.current.get(`${moved.to}:${moved.id}`) ?? heading)?.focus();
  }, [draft]);

  const move = async (item: Item, excluded: boolean) => {
    if (inFlight.current.has(item.id)) return;
    inFlight.current.add(item.id);
    setBusy(new Set(inFlight.current));
    focusAfter.current = { id: item.id, to: excluded ? 'digest-excluded' : 'digest-threads' };
    try {
      await trimDigest(item.id, excluded);
      announce(excluded ? T.leftOut(item.author) : T.putBackDone(item.author));
    } catch (error) {
      focusAfter.current = null;
      if (error instanceof ApiRequestError && error.status === 409) setPublished(true);
      announce(detailOr(error, T.trimFailed), 'error');
    } finally {
      inFlight.current.delete(item.id);
      setBusy(new Set(inFlight.current));
    }
  };

  const loadNext = () => {
    setPublished(false);
    void loadDigestDesk();
  };

  if (state.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (state.status === 'error')
    return (
      <LoadFailed
        className="dashboard-error"
        title={T.loadFailed}
        message={state.message}
        onRetry={() => void loadDigestDesk()}
      />
    );
  const current = state.draft;

  return (
    <div className="digest-desk">
      <LiveAlert announcement={announcement} />
      <header className="digest-desk__head">
        <h2>{T.heading}</h2>
        <p>{draftWeekInWords(current)}.</p>
        <p className="digest-desk__when">{publishesInWords(current.publishes_at, new Date())}.</p>
        {published && (
          <button type="button" className="button button--quiet" onClick={loadNext}>
            {T.loadNext}
          </button>
        )}
      </header>
      <div className="digest-desk__lists">
        <DigestThreadList
          id="digest-threads"
          heading={T.threadsHeading}
          help={T.threadsHelp}
          empty={T.noThreads}
          items={current.threads}
          action={T.leaveOut}
          onAction={(item) => void move(item, true)}
          busy={busy}
          headingRef={threadsHeading}
          buttons={buttons}
        />
        <DigestThreadList
          id="digest-excluded"
          heading={T.excludedHeading}
          empty={T.noExcluded}
          items={current.excluded}
          action={T.putBack}
          onAction={(item) => void move(item, false)}
          busy={busy}
          headingRef={excludedHeading}
          buttons={buttons}
        />
      </div>
      <DigestNoteForm key={current.id} saved={current.note} onLoadNext={loadNext} />
      <MailFacts draft={current} />
      <ThreadsPostFacts post={current.threads_post} />
    </div>
  );
}
