/** UI texts quoted by the specification; kept in one place so tests and islands agree on every word. */
export const TEXTS = {
  loadingThreads: 'Loading design threads...',
  noThreadsForFilter: 'No threads found for the selected filter.',
  threadsLoadFailed: 'Failed to load threads from the API.',
  threadsLoadHint:
    'If you run this site, check that the Threads access token is configured (THREADS_APP_ID and THREADS_APP_SECRET) and that the curation job has exported the catalogue.',
  tryAgain: 'Try Again',
  notFoundTitle: 'Oops! Page not found',
  returnToHome: 'Return to Home',
  privacyPolicy: 'Privacy Policy',
  termsOfUse: 'Terms of Use',
  accessDenied: 'Access denied. This application is restricted to authorized users only.',
  login: 'Login with Threads',
  connecting: 'Connecting...',
  logout: 'Logout',
  backendTimeout: 'Backend server did not respond in time. Please try again.',
  loginUnavailable: 'Sign-in is not available right now. Please try again later.',
  processingAuthorization: 'Processing authorization...',
  authorizationSuccess: 'Authorization successful! Redirecting...',
  authorizationFailed: 'Failed to complete authorization. Please try again.',
  noAuthorizationCode: 'No authorization code received',
  invalidState: 'Invalid state parameter - possible CSRF attack',
  missingSuccessFlag: 'Authorization response missing success flag',
  returnHome: 'Return Home',
} as const;

/** 'Authorization failed: {error}' (spec section 5). */
export const authorizationFailedWith = (error: string) => `Authorization failed: ${error}`;
