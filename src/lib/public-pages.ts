/** Pages listed in sitemap.xml: every indexable static route the build produces. */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/digest/',
  '/filter/text/',
  '/filter/images/',
  '/moderation',
  '/your-posts',
  '/privacy',
  '/terms',
  '/data-deletion',
] as const;
