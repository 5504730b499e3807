import { submissionBadgeTone, type ManualSubmission } from '../../contract/submission.ts';
import { TEXTS } from '../../contract/texts.ts';

/** 'Your Submissions' as loaded: loading, refused (with the reason and whether it is a missing invite), or the list. */
export type SubmissionsLoad =
  | { phase: 'loading' }
  | { phase: 'error'; message: string; needsInvite: boolean }
  | { phase: 'ready'; submissions: ManualSubmission[] };

interface Props {
  load: SubmissionsLoad;
  onRetry(): void;
}

/** The member's own submissions, newest first: thread link, notes, created time and status badge. */
export default function SubmissionList({ load, onRetry }: Props) {
  if (load.phase === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (load.phase === 'error') {
    return (
      <div className="notice notice--error submissions__error" role="alert">
        <p className="notice__title">{load.message}</p>
        {load.needsInvite && (
          <p>
            <a href="/request-invite">Request an invite</a> to submit threads.
          </p>
        )}
        <button type="button" className="button" onClick={onRetry}>
          {TEXTS.tryAgain}
        </button>
      </div>
    );
  }
  if (load.submissions.length === 0) return <p>{TEXTS.noSubmissions}</p>;
  return (
    <ul className="submissions">
      {load.submissions.map((submission) => (
        <li key={submission.id} className="panel submission">
          <div className="submission__head">
            <a className="submission__link" href={submission.thread_url} rel="noopener noreferrer">
              {submission.thread_url}
            </a>
            <span className={`badge badge--${submissionBadgeTone(submission.status)}`}>
              {submission.status}
            </span>
          </div>
          {submission.notes?.trim() && <p className="submission__notes">{submission.notes}</p>}
          <p className="field-help">
            Submitted{' '}
            <time dateTime={submission.created_at}>{new Date(submission.created_at).toLocaleString()}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}
