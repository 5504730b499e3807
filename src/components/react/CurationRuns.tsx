import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { type CurationRunSummary, sourceBadge } from '../../../contract/review.ts';
import type { BadgeTone } from '../../../contract/submission.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { detailOr } from '../../lib/api.ts';
import { $lastCurationRun, runCuration } from '../../stores/dashboard.ts';
import DateTime from './DateTime.tsx';

type Message = { tone: 'status' | 'alert'; text: string } | null;

const RUN_TONE: Record<CurationRunSummary['status'], BadgeTone> = {
  succeeded: 'green',
  partial: 'yellow',
  running: 'yellow',
  failed: 'gray',
};

function added(run: CurationRunSummary): number {
  return Object.values(run.counts).reduce((sum, entry) => sum + entry.added, 0);
}

/** Insights calls the run did not make: the tokens lacked threads_manage_insights (decision 068). */
function insightsSkipped(run: CurationRunSummary): number {
  return Object.values(run.counts).reduce((sum, entry) => sum + (entry.insights_skipped ?? 0), 0);
}

/**
 * The last run on one line (status, when, threads added); its searches, hidden posts, per-source
 * counts and errors folded under it, open by itself only when the run failed or has errors: the
 * desk's first screen belongs to the queue.
 */
function LastRun({ run }: { run: CurationRunSummary }) {
  const sources = Object.entries(run.counts);
  const found = added(run);
  const skipped = insightsSkipped(run);
  return (
    <>
      <p className="curation-run__summary">
        Last run <span className={`badge badge--${RUN_TONE[run.status]}`}>{run.status}</span>{' '}
        {run.finished_at ? (
          <>
            finished <DateTime iso={run.finished_at} />
          </>
        ) : (
          <>
            started <DateTime iso={run.started_at} />
          </>
        )}
        {` · ${found} new ${found === 1 ? 'thread' : 'threads'}`}
      </p>
      <details className="curation-run__details" open={run.status === 'failed' || run.errors.length > 0}>
        <summary>Details of the last run</summary>
        <dl className="profile-facts curation-run__facts">
          <dt>Searches used</dt>
          <dd>{run.searches}</dd>
          <dt>Posts hidden</dt>
          <dd>{run.hidden}</dd>
          {skipped > 0 && (
            <>
              <dt>Likes and replies not asked</dt>
              <dd>{skipped} posts (no threads_manage_insights)</dd>
            </>
          )}
        </dl>
        {sources.length > 0 && (
          <table className="curation-run__counts">
            <caption className="visually-hidden">Threads found per source</caption>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Seen</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {sources.map(([source, counts]) => (
                <tr key={source}>
                  <th scope="row">{sourceBadge(source)}</th>
                  <td>{counts.seen}</td>
                  <td>{counts.added}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {run.errors.length > 0 && (
          <>
            <p className="curation-run__errors-title">Errors</p>
            <ul className="curation-run__errors">
              {run.errors.map((error, index) => (
                <li key={index}>{error}</li>
              ))}
            </ul>
          </>
        )}
      </details>
    </>
  );
}

/** Admins only: how the last curation run went, and 'Refresh now' to run one at once. */
export default function CurationRuns() {
  const last = useStore($lastCurationRun);
  const [refreshing, setRefreshing] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  const refresh = async () => {
    setRefreshing(true);
    setMessage(null);
    try {
      const found = added(await runCuration());
      setMessage({
        tone: 'status',
        text: `Curation run finished: ${found} new ${found === 1 ? 'thread' : 'threads'}.`,
      });
    } catch (error) {
      setMessage({ tone: 'alert', text: detailOr(error, 'Failed to run curation. Please try again.') });
    } finally {
      setRefreshing(false);
    }
  };

  let body;
  if (last.status === 'loading') body = <p role="status">{TEXTS.loading}</p>;
  else if (last.status === 'error') body = <p className="field-help">Failed to load the curation runs.</p>;
  else if (last.data === null) body = <p>No curation runs yet.</p>;
  else body = <LastRun run={last.data} />;

  return (
    <section className="panel curation-runs desk-line" aria-labelledby="curation-runs-title">
      <h2 id="curation-runs-title">Curation</h2>
      <div className="desk-line__body">{body}</div>
      {/* Before the button: the run's outcome reads on the panel's one line, beside what it
          changed, and takes no line of its own above the queue (an error still does). */}
      {message && (
        <p
          className={message.tone === 'alert' ? 'form-error' : 'field-help curation-runs__done'}
          role={message.tone}
        >
          {message.text}
        </p>
      )}
      <button type="button" className="button" disabled={refreshing} onClick={() => void refresh()}>
        {refreshing ? 'Refreshing...' : 'Refresh now'}
      </button>
    </section>
  );
}
