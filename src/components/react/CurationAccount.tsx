import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { CuratorStatus } from '../../../contract/auth.ts';
import { SCOPE_PURPOSES } from '../../../contract/scopes.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { connectCurationAccount } from '../../stores/auth.ts';
import { $curationAccount, loadCurationAccount } from '../../stores/dashboard.ts';
import LoadFailed from './LoadFailed.tsx';

/** Who the panel says is connected, and what they must do next. */
function accountLine(account: CuratorStatus): string {
  if (!account.connected) {
    return account.expected_username
      ? `Not connected: @${account.expected_username} (CURATOR_THREADS_USERNAME) must sign in and connect it.`
      : 'Not connected: connect an admin account so curation can search and publish.';
  }
  if (account.reconnect_needed)
    return `@${account.username}: reconnect needed. Threads no longer accepts its token.`;
  if (account.missing.length > 0) return `@${account.username}: some permissions are missing.`;
  return `@${account.username}: every permission curation needs is granted.`;
}

/** Each curation permission, granted or missing, with what it is for. */
function ScopeList({ account }: { account: CuratorStatus }) {
  const scopes = [...account.granted, ...account.missing];
  return (
    <ul className="curation-account__scopes">
      {scopes.map((scope) => {
        const granted = account.granted.includes(scope);
        return (
          <li key={scope} className="curation-account__scope">
            <span className={`badge badge--${granted ? 'green' : 'yellow'}`}>
              {granted ? 'Granted' : 'Missing'}
            </span>{' '}
            <code>{scope}</code>: {SCOPE_PURPOSES[scope] ?? ''}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Admins only: the curation account (decision 024). Members sign in with threads_basic; the account
 * that searches and publishes is connected here with the curation scopes, and this shows which of
 * them Threads granted.
 */
export default function CurationAccount() {
  const account = useStore($curationAccount);
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const connect = async () => {
    setConnecting(true);
    setError(null);
    const failure = await connectCurationAccount();
    // On success the browser is leaving for Threads: the button stays 'Connecting...'.
    if (failure !== null) {
      setConnecting(false);
      setError(failure);
    }
  };

  let body;
  if (account.status === 'loading') body = <p role="status">{TEXTS.loading}</p>;
  else if (account.status === 'error')
    body = (
      <LoadFailed
        title="Failed to load the curation account."
        message={account.message}
        onRetry={() => void loadCurationAccount()}
      />
    );
  const needsConnect =
    account.status === 'ready' &&
    (!account.data.connected || account.data.reconnect_needed || account.data.missing.length > 0);
  if (account.status === 'ready')
    body = (
      <>
        <p className="curation-account__who">{accountLine(account.data)}</p>
        {needsConnect ? (
          <ScopeList account={account.data} />
        ) : (
          // All granted: one line, the list folded under it (the desk's first screen is the queue's).
          <details className="curation-account__details">
            <summary>Permissions ({account.data.granted.length} granted)</summary>
            <ScopeList account={account.data} />
          </details>
        )}
      </>
    );
  // One line while all is well (the desk's first screen is the queue's); the permissions listed
  // under it when one is missing.
  return (
    <section className="panel curation-account desk-line" aria-labelledby="curation-account-title">
      <h2 id="curation-account-title">Curation account</h2>
      <div className="desk-line__body">{body}</div>
      <button
        type="button"
        className={needsConnect ? 'button' : 'button button--quiet'}
        disabled={connecting}
        onClick={() => void connect()}
      >
        {connecting ? TEXTS.connecting : 'Connect curation account'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
