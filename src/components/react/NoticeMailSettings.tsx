import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  NOTICE_MAIL_TEXTS as T,
  NoticeMailSaveSchema,
  type NoticeMailState,
} from '../../../contract/notice-mail.ts';
import { api, detailOr } from '../../lib/api.ts';
import LoadFailed from './LoadFailed.tsx';

type Load = { phase: 'loading' } | { phase: 'error' } | { phase: 'ready'; state: NoticeMailState };

async function loadState(): Promise<Load> {
  try {
    return { phase: 'ready', state: await api<NoticeMailState>('/api/user/notice-mail') };
  } catch {
    return { phase: 'error' };
  }
}

/** Where the stored address stands, in words. */
function standing(state: NoticeMailState): string {
  if (!state.address) return T.none;
  if (!state.confirmed) return T.waiting;
  return state.enabled ? T.on : T.off;
}

/** The address field's problem, checked by the same rule as the server, or null. */
function emailProblem(email: string): string | null {
  const result = NoticeMailSaveSchema.safeParse({ email, enabled: true });
  return result.success ? null : `The address ${result.error.issues[0]?.message ?? 'is not valid'}.`;
}

/**
 * 'Notices by e-mail' on the member's own profile (decision 058): an address, the choice, Save and
 * Remove. Without mail on the server it only says so (and still lets a stored address be removed).
 * What happened is said in the live status line; a bad address is said beside its field.
 */
export default function NoticeMailSettings() {
  const [load, setLoad] = useState<Load>({ phase: 'loading' });
  const [email, setEmail] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState<'saving' | 'removing' | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  const show = (next: Load) => {
    setLoad(next);
    if (next.phase !== 'ready') return;
    setEmail(next.state.address ?? '');
    setEnabled(next.state.address ? next.state.enabled : true);
  };
  useEffect(() => void loadState().then(show), []);
  useEffect(() => {
    if (fieldError) emailRef.current?.focus();
  }, [fieldError]);

  async function change(method: 'PUT' | 'DELETE') {
    setBusy(method === 'PUT' ? 'saving' : 'removing');
    setMessage('');
    try {
      const body = method === 'PUT' ? { email, enabled } : undefined;
      const state = await api<NoticeMailState>('/api/user/notice-mail', { method, body });
      show({ phase: 'ready', state });
      setMessage(state.message ?? T.saved);
    } catch (error) {
      setMessage(detailOr(error, T.saveFailed));
    } finally {
      setBusy(null);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = emailProblem(email);
    setFieldError(problem);
    if (problem) return;
    void change('PUT');
  }

  const heading = <h2 id="notice-mail-title">{T.heading}</h2>;
  if (load.phase === 'loading')
    return (
      <section className="panel notice-mail" aria-labelledby="notice-mail-title">
        {heading}
        <p role="status">{T.loading}</p>
      </section>
    );
  if (load.phase === 'error')
    return (
      <section className="panel notice-mail" aria-labelledby="notice-mail-title">
        {heading}
        <LoadFailed title={T.loadFailed} onRetry={() => void loadState().then(show)} />
      </section>
    );

  const { state } = load;
  const removeButton = state.address && (
    <button
      type="button"
      className="button button--quiet"
      disabled={busy !== null}
      onClick={() => void change('DELETE')}
    >
      {busy === 'removing' ? T.removing : T.remove}
    </button>
  );
  const status = (
    <p className="profile-saved" role="status" aria-live="polite">
      {message}
    </p>
  );
  if (!state.available)
    return (
      <section className="panel notice-mail" aria-labelledby="notice-mail-title">
        {heading}
        <p>{T.noMail}</p>
        {state.address && (
          <p>
            {state.address} {removeButton}
          </p>
        )}
        {status}
      </section>
    );

  return (
    <section className="panel notice-mail" aria-labelledby="notice-mail-title">
      {heading}
      <p id="notice-mail-intro">{T.intro}</p>
      <p>{standing(state)}</p>
      <form className="profile-form" onSubmit={submit} noValidate>
        <label htmlFor="notice-mail-address">{T.addressLabel}</label>
        <input
          id="notice-mail-address"
          ref={emailRef}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? 'notice-mail-intro notice-mail-error' : 'notice-mail-intro'}
          required
        />
        {fieldError && (
          <p id="notice-mail-error" className="field-error">
            {fieldError}
          </p>
        )}
        <label>
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />{' '}
          {T.enabledLabel}
        </label>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy !== null}>
            {busy === 'saving' ? T.saving : T.save}
          </button>
          {removeButton}
        </div>
      </form>
      {status}
    </section>
  );
}
