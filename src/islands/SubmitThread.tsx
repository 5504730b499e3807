import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  NOTES_MAX_LENGTH,
  type ManualSubmission,
  type ManualSubmissionRequest,
} from '../../contract/submission.ts';
import { AUTHOR_TEXTS, SHOW_AS_CARDS_LABEL } from '../../contract/authors.ts';
import { canSubmit, MEMBER_TEXTS } from '../../contract/membership.ts';
import { TEXTS } from '../../contract/texts.ts';
import { parseThreadUrl } from '../../contract/thread-url.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { useSignedIn } from '../stores/auth.ts';
import { loadMembership, useMembership } from '../stores/membership.ts';
import InviteStatePanel from '../components/react/InviteStatePanel.tsx';
import LoadFailed from '../components/react/LoadFailed.tsx';
import SubmissionList, { type SubmissionsLoad } from '../components/react/SubmissionList.tsx';

/** How long 'Thread submitted successfully!' stays up (spec section 9: submission success banner 3 s). */
const SUBMITTED_BANNER_MS = 3000;

/** What went wrong, and where focus goes: the URL field for our own check, the banner for the server's answer. */
interface Problem {
  message: string;
  focus: 'field' | 'alert';
}

/** The member's submissions, newest first; a refusal keeps the server's reason (403: no approved profile). */
async function fetchSubmissions(): Promise<SubmissionsLoad> {
  try {
    const { submissions } = await api<{ submissions: ManualSubmission[] }>(
      '/api/dashboard/manual-submissions',
    );
    return { phase: 'ready', submissions };
  } catch (error) {
    const refused = error instanceof ApiRequestError ? error : null;
    return {
      phase: 'error',
      message: refused?.detail || TEXTS.manualSubmissionsFailed,
      needsInvite: refused?.status === 403,
    };
  }
}

/**
 * The Submit page (spec: Submit): the 'Submit Thread' form, then 'Your Submissions', for admins and
 * approved members; anyone else signed in sees their invite state instead (issue 10).
 */
export default function SubmitThread({ titleId }: { titleId: string }) {
  const auth = useSignedIn('/');
  const membership = useMembership();
  const allowed = membership.status === 'ready' && canSubmit(membership.membership);
  const [list, setList] = useState<SubmissionsLoad>({ phase: 'loading' });
  const [url, setUrl] = useState('');
  const [notes, setNotes] = useState('');
  const [asCards, setAsCards] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [sending, setSending] = useState(false);
  // 0: hidden; each success counts up, so a second success restarts the 3 s.
  const [banner, setBanner] = useState(0);
  const urlRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);

  const reload = useCallback(() => {
    setList({ phase: 'loading' });
    void fetchSubmissions().then(setList);
  }, []);

  useEffect(() => {
    if (allowed) void fetchSubmissions().then(setList);
  }, [allowed]);

  useEffect(() => {
    if (banner === 0) return;
    const timer = setTimeout(() => setBanner(0), SUBMITTED_BANNER_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  useEffect(() => {
    if (problem?.focus === 'field') urlRef.current?.focus();
    else if (problem?.focus === 'alert') alertRef.current?.focus();
  }, [problem]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setBanner(0);
    const threadUrl = url.trim();
    // The same rules as the server, so a blank or foreign link never leaves the browser.
    const parsed = parseThreadUrl(threadUrl);
    if (!parsed.ok) return setProblem({ message: parsed.problem, focus: 'field' });

    setSending(true);
    setProblem(null);
    const body: ManualSubmissionRequest = {
      thread_url: threadUrl,
      ...(notes.trim() ? { notes: notes.trim() } : {}),
      // Ticked: the consent is given with the submission (decision 070); unticked withdraws nothing.
      ...(asCards ? { show_as_cards: true } : {}),
    };
    try {
      const { submission } = await api<{ submission: ManualSubmission }>('/api/dashboard/manual-submission', {
        method: 'POST',
        body,
      });
      setUrl('');
      setNotes('');
      setBanner((count) => count + 1);
      if (list.phase === 'ready') {
        const others = list.submissions.filter((item) => item.id !== submission.id);
        setList({ phase: 'ready', submissions: [submission, ...others] });
      } else {
        reload();
      }
      urlRef.current?.focus();
    } catch (error) {
      const detail = error instanceof ApiRequestError ? error.detail : null;
      setProblem({ message: detail || TEXTS.submitFailed, focus: 'alert' });
    } finally {
      setSending(false);
    }
  }

  if (auth.status !== 'authenticated' || membership.status === 'loading')
    return <p role="status">{TEXTS.loading}</p>;
  if (membership.status === 'error')
    return <LoadFailed title={MEMBER_TEXTS.membershipFailed} onRetry={() => void loadMembership(true)} />;
  const { profile_status: status } = membership.membership;
  if (!allowed && status !== 'approved') return <InviteStatePanel status={status} />;

  const urlDescribedBy = problem?.focus === 'field' ? 'thread-url-help submit-error' : 'thread-url-help';
  return (
    <>
      <form
        className="panel profile-form submit-form"
        aria-labelledby={titleId}
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <label htmlFor="thread-url">{TEXTS.threadUrl}</label>
        <input
          id="thread-url"
          ref={urlRef}
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          required
          aria-invalid={problem?.focus === 'field' ? true : undefined}
          aria-describedby={urlDescribedBy}
        />
        <p id="thread-url-help" className="field-help">
          A link to a post on Threads, such as https://www.threads.com/@user/post/ABC123.
        </p>
        <label htmlFor="thread-notes">{TEXTS.notes}</label>
        <textarea
          id="thread-notes"
          rows={3}
          value={notes}
          maxLength={NOTES_MAX_LENGTH}
          onChange={(event) => setNotes(event.target.value)}
          aria-describedby="thread-notes-help"
        />
        <p id="thread-notes-help" className="field-help">
          Optional: why this thread belongs here. {notes.length} / {NOTES_MAX_LENGTH} characters.
        </p>
        <label className="submit-form__check">
          <input
            type="checkbox"
            checked={asCards}
            onChange={(event) => setAsCards(event.target.checked)}
            aria-describedby="thread-cards-help"
          />
          {SHOW_AS_CARDS_LABEL}
        </label>
        <p id="thread-cards-help" className="field-help">
          {AUTHOR_TEXTS.cardsHint}
        </p>
        {problem && (
          <p id="submit-error" ref={alertRef} className="form-error" role="alert" tabIndex={-1}>
            {problem.message}
          </p>
        )}
        <div role="status" className="submit-status">
          {banner > 0 && <p className="submit-banner">{TEXTS.submitted}</p>}
        </div>
        <div className="form-actions">
          <button type="submit" className="button" disabled={sending}>
            {sending ? 'Submitting...' : TEXTS.submitThread}
          </button>
        </div>
      </form>
      <section id="your-submissions" className="submissions-section" aria-labelledby="your-submissions-title">
        <h2 id="your-submissions-title">{TEXTS.yourSubmissions}</h2>
        <SubmissionList load={list} onRetry={reload} />
      </section>
    </>
  );
}
