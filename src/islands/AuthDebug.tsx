import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { AuthConfig } from '../../contract/auth.ts';
import { describeFreshness, operatorFreshnessText } from '../../contract/freshness.ts';
import { api, ApiRequestError } from '../lib/api.ts';
import { OAUTH_REDIRECT_KEY, OAUTH_STATE_KEY } from '../lib/oauth.ts';
import { readStoredUser } from '../lib/user-storage.ts';
import { $auth, checkAuth, recheckAuth } from '../stores/auth.ts';
import { $manifestCheck, loadManifest, type ManifestCheck } from '../stores/manifest.ts';

/** What a call answered, or why it failed, as text to show. */
async function describeCall(path: string): Promise<string> {
  try {
    return JSON.stringify(await api<unknown>(path), null, 2);
  } catch (error) {
    return error instanceof ApiRequestError
      ? `HTTP ${error.status}: ${error.message}`
      : `Failed: ${(error as Error).message}`;
  }
}

function storedValues(): string {
  const values = {
    user: readStoredUser(),
    oauthState: sessionStorage.getItem(OAUTH_STATE_KEY),
    oauthRedirectUri: sessionStorage.getItem(OAUTH_REDIRECT_KEY),
  };
  return JSON.stringify(values, null, 2);
}

function Section({
  title,
  onRefresh,
  children,
}: {
  title: string;
  onRefresh?: () => void;
  children: ReactNode;
}) {
  return (
    <section className="panel debug-section" aria-label={title}>
      <div className="debug-section__head">
        <h2>{title}</h2>
        {onRefresh && (
          <button type="button" className="button button--quiet" onClick={onRefresh}>
            Refresh
          </button>
        )}
      </div>
      {children}
    </section>
  );
}

/** The manifest in an operator's words: dates, version, head and whether a refresh is overdue. */
function catalogueLine(check: ManifestCheck | null): string {
  if (!check) return 'Loading...';
  const { manifest } = check;
  if (!manifest) return '/data/manifest.json could not be read.';
  const freshness = operatorFreshnessText(describeFreshness(manifest, new Date(check.checkedAt)));
  return [
    `generatedAt: ${manifest.generatedAt}`,
    `nextUpdate:  ${manifest.nextUpdate}`,
    `version:     ${manifest.version ?? '(none)'}`,
    // The tail's digest (decision 037): it moves with every approval, `version` only with a full export.
    `head:        ${manifest.head ?? '(none)'}`,
    `threads:     ${manifest.counts?.all ?? '?'} (${manifest.topics?.length ?? 0} topics)`,
    freshness,
  ].join('\n');
}

/** The sign-in debug page (spec: Debug page). Shows only what the browser may know: never a token. */
export default function AuthDebug() {
  const auth = useStore($auth);
  const [stored, setStored] = useState(storedValues);
  const [health, setHealth] = useState('Loading...');
  const [verify, setVerify] = useState('Loading...');
  const [cookies, setCookies] = useState(() => document.cookie);
  const [config, setConfig] = useState<AuthConfig | null | 'failed'>(null);
  const manifestCheck = useStore($manifestCheck);

  const refreshHealth = useCallback(() => void describeCall('/api/health').then(setHealth), []);
  const refreshVerify = useCallback(() => void describeCall('/api/auth/verify').then(setVerify), []);
  useEffect(() => {
    void checkAuth();
    refreshHealth();
    refreshVerify();
    void api<AuthConfig>('/api/auth/config').then(setConfig, () => setConfig('failed'));
    void loadManifest();
  }, [refreshHealth, refreshVerify]);

  return (
    <div className="debug">
      <Section title="Auth context" onRefresh={() => void recheckAuth()}>
        <pre>{JSON.stringify(auth, null, 2)}</pre>
      </Section>
      <Section title="Stored values" onRefresh={() => setStored(storedValues())}>
        <pre>{stored}</pre>
      </Section>
      <Section title="Backend health" onRefresh={refreshHealth}>
        <pre>{health}</pre>
      </Section>
      <Section title="Verify result" onRefresh={refreshVerify}>
        <pre>{verify}</pre>
      </Section>
      <Section title="Cookies visible to scripts" onRefresh={() => setCookies(document.cookie)}>
        <pre>{cookies || '(none)'}</pre>
        <p className="field-help">
          The session cookie is HttpOnly: scripts cannot read it, so it never appears here, even while you are
          signed in.
        </p>
      </Section>
      <Section title="Public catalogue" onRefresh={() => void loadManifest({ force: true })}>
        <pre>{catalogueLine(manifestCheck)}</pre>
      </Section>
      <Section title="Public OAuth settings">
        {config === null ? (
          <p>Loading...</p>
        ) : config === 'failed' ? (
          <p>Failed to load the OAuth settings.</p>
        ) : (
          <dl className="profile-facts">
            <dt>Client id</dt>
            <dd>{config.client_id || '(not configured)'}</dd>
            <dt>Redirect URI</dt>
            <dd>{config.redirect_uri}</dd>
            <dt>Auth base URL</dt>
            <dd>{config.auth_base_url}</dd>
            <dt>Mode</dt>
            <dd>{config.mode}</dd>
          </dl>
        )}
      </Section>
    </div>
  );
}
