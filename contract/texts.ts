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
} as const;
