import { hasHiddenCharacters } from './hidden-characters.ts';

/** The size link previews ask for: 1.91:1, large enough for high-density screens. */
export const SOCIAL_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** The site's own picture (built once per code change): home and every page without one of its own. */
export const SITE_SOCIAL_IMAGE_PATH = '/social.png';

/** The pages that have a picture of their own, drawn by the server on request (decision 048). */
export const SOCIAL_KINDS = ['thread', 'topic', 'profile', 'digest'] as const;
export type SocialKind = (typeof SOCIAL_KINDS)[number];

/** Where the server draws pictures: `/social/{kind}/{key}.png`. */
export const SOCIAL_PREFIX = '/social/';

/** The picture of one thread (by id), topic (by slug), member profile (by username) or digest (`2026-48`). */
export function socialImagePath(kind: SocialKind, key: string): string {
  return `${SOCIAL_PREFIX}${kind}/${encodeURIComponent(key)}.png`;
}

/** The kind and key a decoded path names, or null when it names no picture. */
export function parseSocialImagePath(pathname: string): { kind: SocialKind; key: string } | null {
  if (!pathname.startsWith(SOCIAL_PREFIX) || !pathname.endsWith('.png')) return null;
  const rest = pathname.slice(SOCIAL_PREFIX.length, -'.png'.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return null;
  const kind = rest.slice(0, slash);
  const key = rest.slice(slash + 1);
  if (!(SOCIAL_KINDS as readonly string[]).includes(kind) || key === '' || key.includes('/')) return null;
  // No page is named by hidden characters; a NUL would reach the database's lookup as a 500 (issue 34).
  if (hasHiddenCharacters(key)) return null;
  return { kind: kind as SocialKind, key };
}
