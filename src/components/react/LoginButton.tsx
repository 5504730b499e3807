import { useStore } from '@nanostores/react';
import { TEXTS } from '../../../contract/texts.ts';
import { $connecting, $loginError, login } from '../../stores/auth.ts';

/**
 * 'Login with Threads' and the reason starting failed, shown 'Connecting...' while it starts (spec:
 * header and navigation): the header's sign-in and the author page's, one control.
 */
export default function LoginButton({ errorClassName }: { errorClassName: string }) {
  const connecting = useStore($connecting);
  const loginError = useStore($loginError);
  return (
    <>
      {loginError && (
        <p className={errorClassName} role="alert">
          {loginError}
        </p>
      )}
      <button type="button" className="button" onClick={() => void login()} disabled={connecting}>
        {connecting ? TEXTS.connecting : TEXTS.login}
      </button>
    </>
  );
}
