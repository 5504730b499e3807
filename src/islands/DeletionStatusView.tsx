import { useEffect, useState } from 'react';
import {
  DELETION_STATUS_TEXT,
  type DeletionStatus,
  type DeletionStatusResponse,
} from '../../contract/data-deletion.ts';
import { TEXTS } from '../../contract/texts.ts';
import { api, ApiRequestError } from '../lib/api.ts';

type View =
  { phase: 'loading' } | { phase: 'failed'; reason: string } | { phase: 'ready'; status: DeletionStatus };

async function fetchStatus(code: string | null): Promise<View> {
  if (!code) return { phase: 'failed', reason: TEXTS.noConfirmationCode };
  try {
    const body = await api<DeletionStatusResponse>(
      `/api/auth/data-deletion-status/${encodeURIComponent(code)}`,
    );
    return { phase: 'ready', status: body.status };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404)
      return { phase: 'ready', status: 'unknown' };
    return { phase: 'failed', reason: TEXTS.deletionStatusFailed };
  }
}

/** The data-deletion status page (spec): loading, then a panel for the request's status. */
export default function DeletionStatusView() {
  const [view, setView] = useState<View>({ phase: 'loading' });
  useEffect(() => {
    void fetchStatus(new URLSearchParams(window.location.search).get('code')).then(setView);
  }, []);

  if (view.phase === 'loading') return <p role="status">{TEXTS.loading}</p>;
  if (view.phase === 'failed') {
    return (
      <div className="notice notice--error" role="alert">
        <p className="notice__title">{view.reason}</p>
      </div>
    );
  }
  const text = DELETION_STATUS_TEXT[view.status];
  return (
    <div className={`panel deletion-status deletion-status--${view.status}`} role="status">
      <h2>{text.title}</h2>
      <p>{text.message}</p>
    </div>
  );
}
