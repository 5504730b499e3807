import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import {
  AUTHOR_TEXTS,
  optOutDoneText,
  type AuthorOptOutResult,
  type AuthorOverview,
  type AuthorPost,
  type AuthorPostResult,
} from '../../contract/authors.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, detailOr } from '../lib/api.ts';
import { $connecting, $loginError, checkAuth, login, useAuth } from '../stores/auth.ts';
import AuthorPostList from '../components/react/AuthorPostList.tsx';
import CardConsent from '../components/react/CardConsent.tsx';
import LoadFailed from '../components/react/LoadFailed.tsx';
import '../styles/your-posts.css';

type Load =
  | { phase: 'loading' }
  | { phase: 'error'; message: string | undefined }
  | { phase: 'ready'; overview: AuthorOverview };
type Done = { text: string; tone: 'success' | 'error' } | null;

async function loadOverview(): Promise<Load> {
  try {
    return { phase: 'ready', overview: await api<AuthorOverview>('/api/authors/me') };
  } catch (error) {
    return { phase: 'error', message: detailOr(error, '') || undefined };
  }
}

/** Signed out: why to sign in, and the existing sign-in flow. */
function SignInPrompt() {
  const connecting = useStore($connecting);
  const loginError = useStore($loginError);
  return (
    <div className="panel">
      <p>{AUTHOR_TEXTS.signInPrompt}</p>
      {loginError && (
        <p className="form-error" role="alert">
          {loginError}
        </p>
      )}
      <button type="button" className="button" onClick={() => void login()} disabled={connecting}>
        {connecting ? TEXTS.connecting : TEXTS.login}
      </button>
    </div>
  );
}

/**
 * 'Is this your post?' for the signed-in person: the posts of theirs the catalogue holds, 'Remove this
 * post' and 'Restore' on each, and 'Never curate me' (confirmed first) or 'Allow curation again'.
 */
export default function YourPosts() {
  const auth = useAuth();
  const [load, setLoad] = useState<Load>({ phase: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<Done>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const optRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const focusOpt = useRef(false);

  useEffect(() => {
    void checkAuth();
  }, []);
  useEffect(() => {
    if (auth.status === 'authenticated') void loadOverview().then(setLoad);
  }, [auth.status]);
  // The question replaces the button: focus moves to its answer.
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  // After the confirmation closes, or the opt-out changed, focus returns to the opt-out button.
  useEffect(() => {
    if (focusOpt.current && !confirming && busy === null) {
      focusOpt.current = false;
      optRef.current?.focus();
    }
  });

  if (auth.status === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (auth.status === 'anonymous') return <SignInPrompt />;
  if (load.phase === 'loading') return <p role="status">{AUTHOR_TEXTS.loading}</p>;
  if (load.phase === 'error')
    return (
      <LoadFailed
        title={AUTHOR_TEXTS.loadFailed}
        message={load.message}
        onRetry={() => {
          setLoad({ phase: 'loading' });
          void loadOverview().then(setLoad);
        }}
      />
    );

  const { overview } = load;
  const replacePost = (post: AuthorPost) =>
    setLoad({
      phase: 'ready',
      overview: { ...overview, posts: overview.posts.map((p) => (p.id === post.id ? post : p)) },
    });

  async function act(post: AuthorPost, action: 'remove' | 'restore') {
    setBusy(post.id);
    try {
      const result = await api<AuthorPostResult>(`/api/authors/me/posts/${post.id}/${action}`, {
        method: 'POST',
      });
      replacePost(result.post);
      setDone({ text: action === 'remove' ? AUTHOR_TEXTS.removed : AUTHOR_TEXTS.restored, tone: 'success' });
    } catch (error) {
      setDone({ text: detailOr(error, AUTHOR_TEXTS.actionFailed), tone: 'error' });
    } finally {
      setBusy(null);
      // The pressed button is replaced by its opposite: the list keeps the focus.
      listRef.current?.focus();
    }
  }

  async function setOptOut(optOut: boolean) {
    setBusy('opt-out');
    try {
      const result = await api<AuthorOptOutResult>('/api/authors/me/opt-out', {
        method: optOut ? 'POST' : 'DELETE',
      });
      // Waiting posts may have left the queue: read the list again.
      const fresh = await loadOverview();
      if (fresh.phase === 'ready') setLoad(fresh);
      setDone({
        text: optOut ? optOutDoneText(result.removed_from_queue) : AUTHOR_TEXTS.optedInDone,
        tone: 'success',
      });
    } catch (error) {
      setDone({ text: detailOr(error, AUTHOR_TEXTS.actionFailed), tone: 'error' });
    } finally {
      setBusy(null);
      setConfirming(false);
      focusOpt.current = true;
    }
  }

  return (
    <>
      <section className="panel author-opt-out" aria-labelledby="opt-out-title">
        <h2 id="opt-out-title">Curation of @{overview.threads_username}</h2>
        <p>{overview.opted_out ? AUTHOR_TEXTS.optedOut : AUTHOR_TEXTS.notOptedOut}</p>
        {confirming ? (
          <div className="author-opt-out__confirm" role="group" aria-labelledby="opt-out-confirm">
            <p id="opt-out-confirm">{AUTHOR_TEXTS.confirmOptOut}</p>
            <div className="form-actions">
              <button
                type="button"
                className="button"
                ref={confirmRef}
                disabled={busy !== null}
                onClick={() => void setOptOut(true)}
              >
                {AUTHOR_TEXTS.confirm}
              </button>
              <button
                type="button"
                className="button button--quiet"
                onClick={() => {
                  focusOpt.current = true;
                  setConfirming(false);
                }}
              >
                {AUTHOR_TEXTS.cancel}
              </button>
            </div>
          </div>
        ) : (
          <button
            ref={optRef}
            type="button"
            className={overview.opted_out ? 'button button--quiet' : 'button'}
            disabled={busy !== null}
            onClick={() => (overview.opted_out ? void setOptOut(false) : setConfirming(true))}
          >
            {overview.opted_out ? AUTHOR_TEXTS.optIn : AUTHOR_TEXTS.optOut}
          </button>
        )}
      </section>
      <CardConsent
        overview={overview}
        onChange={(shown, outcome) => {
          setLoad({ phase: 'ready', overview: { ...overview, shown_as_cards: shown } });
          setDone(outcome);
        }}
      />
      <p className={`author-posts__done author-posts__done--${done?.tone ?? 'none'}`} role="status">
        {done?.text}
      </p>
      <AuthorPostList
        posts={overview.posts}
        busyId={busy}
        listRef={listRef}
        onRemove={(post) => void act(post, 'remove')}
        onRestore={(post) => void act(post, 'restore')}
      />
    </>
  );
}
