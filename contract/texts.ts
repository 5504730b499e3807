/** UI texts quoted by the specification; kept in one place so tests and islands agree on every word. */
export const TEXTS = {
  loadingThreads: 'Loading design threads...',
  noThreadsForFilter: 'No threads found for the selected filter.',
  threadsLoadFailed: 'Failed to load threads from the API.',
  threadsLoadHint:
    'If you run this site, check that the Threads access token is configured (THREADS_APP_ID and THREADS_APP_SECRET) and that the curation job has exported the catalogue.',
  tryAgain: 'Try Again',
  /** Without JavaScript the static site cannot search (the index is read in the browser). */
  searchNeedsJavaScript:
    'Search runs in your browser: turn on JavaScript to search, or browse the topics below.',
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
  loading: 'Loading...',
  // Request invite
  join: 'Join',
  goToLogin: 'Go to Login',
  requestInvite: 'Request Invite',
  inviteRequestFailed: 'Failed to request invite',
  profileStatusFailed: 'Failed to check profile status',
  invitePending: 'Invite Pending',
  checkStatus: 'Check Status',
  reviewTime: 'An invite request usually takes 1-2 business days to review.',
  inviteDeclined: 'Invite Declined',
  // Profile
  myProfile: 'My Profile',
  profileLoadFailed: 'Failed to load profile',
  profileUpdateFailed: 'Failed to update profile',
  profileNotFound: 'Profile not found',
  backToHome: 'Back to Home',
  editProfile: 'Edit Profile',
  saveChanges: 'Save Changes',
  cancel: 'Cancel',
  noGems: 'No gems collected yet',
  noThreadsPosted: 'No threads posted yet',
  // Dashboard
  dashboard: 'Dashboard',
  loggedInAs: 'Logged in as',
  noOwnThreads: 'No threads found.',
  /** After the My Threads summary: where the public count of them is. */
  ownThreadsProfileLink: 'Your profile shows those in the catalogue',
  /** Under the own profile's My Threads: what is counted, and where the rest are. */
  ownThreadsCounted: 'Only your threads in the catalogue are counted here.',
  ownThreadsDashboardLink: 'Your dashboard lists all of them',
  noPendingReview: 'No threads pending review.',
  noManualSubmissions: 'No manual submissions yet.',
  noPendingUsers: 'No pending users.',
  approveUser: 'Approve User',
  reject: 'Reject',
  viewProfile: 'View Profile',
  rejectUserConfirm: 'Are you sure you want to reject this user? This action cannot be undone.',
  userApproved: 'User approved successfully!',
  userRejected: 'User rejected.',
  userApproveFailed: 'Failed to approve user',
  userRejectFailed: 'Failed to reject user',
  pendingUsersFailed: 'Failed to fetch pending users',
  threadApproved: 'Thread approved successfully!',
  threadApproveFailed: 'Failed to approve thread. Please try again.',
  threadRejected: 'Thread rejected successfully!',
  threadRejectFailed: 'Failed to reject thread. Please try again.',
  viewOnThreads: 'View on Threads',
  approve: 'Approve',
  manualSubmissionsFailed: 'Failed to fetch manual submissions',
  // Submit
  submitThread: 'Submit Thread',
  threadUrl: 'Thread URL',
  notes: 'Notes',
  submitFailed: 'Failed to submit thread',
  submitted: 'Thread submitted successfully!',
  yourSubmissions: 'Your Submissions',
  noSubmissions: 'No submissions yet. Submit your first thread above!',
  // Data deletion status
  noConfirmationCode: 'No confirmation code provided',
  deletionStatusFailed: 'Failed to check deletion status',
} as const;

/** The status banner of the own profile page (spec: Pending Approval, Approved, Rejected). */
export const PROFILE_STATUS_LABELS = {
  pending: 'Pending Approval',
  approved: 'Approved',
  rejected: 'Rejected',
} as const;

/** 'Authorization failed: {error}' (spec section 5). */
export const authorizationFailedWith = (error: string) => `Authorization failed: ${error}`;
