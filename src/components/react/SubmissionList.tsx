import '../../styles/moderation.css';
import { MODERATION_TEXTS } from '../../../contract/moderation-log.ts';
import { submissionBadgeTone, type ManualSubmission } from '../../../contract/submission.ts';
import { TEXTS } from '../../../contract/texts.ts';
import DateTime from './DateTime.tsx';
import LoadFailed from './LoadFailed.tsx';

/** 'Your Submissions' as loaded: loading, refused (with the reason and whether it is a missing invite), or the list. */
export type SubmissionsLoad =
  | { phase: 'loading' }
  | { phase: 'error'; message: string; needsInvite: boolean }
  | { phase: 'ready'; submissions: ManualSubmission[] };

interface Props {
  load: SubmissionsLoad;
  onRetry(): void;
}

/**
 * The member's own submissions, newest first: thread link, notes, created time, status badge and,
 * once decided, when; a rejection's reason stands beside its badge in words.
 */
export default function SubmissionList({ load, onRetry }: Props) {
  if (load.phase === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (load.phase === 'error') {
    return (
      <LoadFailed className="submissions__error" title={load.message} onRetry={onRetry}>
        {load.needsInvite && (
          <p>
            <a href="/request-invite">Request an invite</a> to submit threads.
          </p>
        )}
      </LoadFailed>
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
            <span className="submission__status">
              <span className={`badge badge--${submissionBadgeTone(submission.status)}`}>
                {submission.status}
              </span>
              {submission.status === 'rejected' && submission.decision_reason && (
                <span className="decision-reason">
                  <strong>{MODERATION_TEXTS.reason}</strong> {submission.decision_reason}
                </span>
              )}
            </span>
          </div>
          {submission.notes?.trim() && <p className="submission__notes">{submission.notes}</p>}
          <p className="field-help">
            Submitted <DateTime iso={submission.created_at} />
            {submission.decided_at && (
              <>
                {' · '}
                {MODERATION_TEXTS.decided} <DateTime iso={submission.decided_at} />
              </>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}
