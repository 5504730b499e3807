import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import { TEXTS } from '../../contract/texts.ts';
import { $connecting, $loginError, checkAuth, login, logout, useAuth } from '../stores/auth.ts';

// The placeholder's size is the menu's (notices.css): loaded with the header, not with the menu.
import '../styles/notices.css';

// Only signed-in people have notices (decision 056): a chunk of its own, fetched once they are known,
// so a visitor's header carries none of it (decision 053).
const NoticesMenu = lazy(() => import('../components/react/NoticesMenu.tsx'));

/** Links shown to signed-in users (spec: Home, Dashboard and Submit Thread). */
const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/dashboard', label: TEXTS.dashboard },
  { href: '/submit', label: TEXTS.submitThread },
] as const;

/** The header's navigation and login control: 'Login with Threads', or the username with 'Logout'. */
export default function HeaderAuth({ currentPath }: { currentPath: string }) {
  const auth = useAuth();
  // Pages are built as folders: /dashboard may be reached as /dashboard/.
  const activePath = currentPath.length > 1 ? currentPath.replace(/\/$/, '') : currentPath;
  const connecting = useStore($connecting);
  const loginError = useStore($loginError);
  useEffect(() => {
    void checkAuth();
  }, []);

  // Before the session check (and in the built HTML, which this island renders at build time) a
  // visitor's Login button is already there: the island hydrates on first use (decision 053), and a
  // press before then is replayed. CSS hides it without JavaScript (it could not sign in) and while
  // a stored member waits for the check (global.css, html[data-js] and html[data-member]).
  if (auth.status === 'loading' || auth.status === 'anonymous') {
    return (
      <div className={auth.status === 'loading' ? 'header-auth header-auth--pending' : 'header-auth'}>
        {loginError && (
          <p className="header-auth__error" role="alert">
            {loginError}
          </p>
        )}
        <button type="button" className="button" onClick={() => void login()} disabled={connecting}>
          {connecting ? TEXTS.connecting : TEXTS.login}
        </button>
      </div>
    );
  }

  return (
    <div className="header-auth">
      <nav aria-label="Main" className="header-auth__nav">
        {NAV_LINKS.map(({ href, label }) => (
          <a key={href} href={href} aria-current={activePath === href ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <a
        className="header-auth__user"
        href="/profile"
        aria-current={activePath === '/profile' ? 'page' : undefined}
        title={TEXTS.myProfile}
      >
        @{auth.user.username ?? auth.user.id}
      </a>
      <Suspense fallback={<span className="notices--placeholder" aria-hidden="true" />}>
        <NoticesMenu />
      </Suspense>
      <button type="button" className="button button--quiet" onClick={() => void logout()}>
        {TEXTS.logout}
      </button>
    </div>
  );
}
