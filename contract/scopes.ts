// Zod-free, so the site's parts may import it (decision 022).

/**
 * What each permission of the curation account is for, in words: the dashboard's curation account
 * panel and docs/going-live.md (the App Review reasons) say the same.
 */
export const SCOPE_PURPOSES: Readonly<Record<string, string>> = {
  threads_basic: 'Sign in, and read the account and its own posts.',
  threads_keyword_search: 'Search public posts by keyword and topic tag for the review queue.',
  threads_manage_insights: "Read likes and replies of the account's own posts.",
  threads_content_publish: 'Publish the posts about approved submissions.',
};
