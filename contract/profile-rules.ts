import { ProfileCollectionsSchema } from './gems.ts';
import { hasHiddenCharacters } from './hidden-characters.ts';
import { foldName } from './name-fold.ts';
import { z } from './zod.ts';

/** Profile statuses (spec section 3); 'none' is the state before any invite request. */
export const PROFILE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

export const DISPLAY_USERNAME_MIN = 3;
export const DISPLAY_USERNAME_MAX = 30;
export const BIO_MAX = 300;

export const USERNAME_MESSAGES = {
  characters: 'Username can only contain letters, numbers, and underscores',
  length: 'Username must be between 3 and 30 characters',
  reserved: 'This username is reserved. Please choose another.',
  taken: 'This username is already taken. Please choose another.',
  // Someone else's Threads handle: /{name} would seem to be their page (decision 028).
  threadsHandle: "This is another person's Threads username. Please choose another.",
  // Lookalikes (decision 065): as much as the exact refusals say, and no more (not which name it resembles).
  reservedLookalike: 'This username looks too much like a reserved name. Please choose another.',
  takenLookalike: 'This username looks too much like one already taken. Please choose another.',
  threadsHandleLookalike:
    "This username looks too much like another person's Threads username. Please choose another.",
} as const;

/**
 * Names a profile may not take: every top-level route and folder of the site and the API, and a few
 * that would mislead. Compared without regard to case. Names with '-' cannot pass the username
 * rule anyway; they are listed so this stays the one list of top-level paths.
 */
export const RESERVED_USERNAMES: readonly string[] = [
  '_astro',
  // The static hosts' header file the build writes (decision 017): a profile folder cannot share its name.
  '_headers',
  '404',
  'about',
  'admin',
  'administrator',
  'api',
  'assets',
  'auth',
  'callback',
  'dashboard',
  'data',
  'data-deletion',
  'data-deletion-status',
  // The weekly digests' pages (decision 057).
  'digest',
  'favicon',
  'feed',
  'feeds',
  // The filter pages' folder (/filter/text/, decision 042).
  'filter',
  'help',
  'index',
  'invite',
  'login',
  'logout',
  'me',
  'moderation',
  'null',
  'privacy',
  'profile',
  'request-invite',
  'robots',
  'root',
  'sample',
  'search',
  'settings',
  'signin',
  'signup',
  'simulated-threads',
  'sitemap',
  // The site's link preview picture (/social.png) and the pictures drawn per page (/social/..., decision 048).
  'social',
  'static',
  'status',
  'submit',
  'support',
  'system',
  'terms',
  // A page per approved thread (/thread/{id}, decision 046).
  'thread',
  'threads',
  'topic',
  'topics',
  'undefined',
  'well_known',
  'your-posts',
];

/**
 * The spec's display-username rule (letters, digits, underscore; 3 to 30), ASCII only, plus the
 * reserved names. Returns the message to show, or null when the name is acceptable.
 */
export function displayUsernameProblem(name: string): string | null {
  if (!/^[A-Za-z0-9_]*$/.test(name)) return USERNAME_MESSAGES.characters;
  if (name.length < DISPLAY_USERNAME_MIN || name.length > DISPLAY_USERNAME_MAX)
    return USERNAME_MESSAGES.length;
  if (RESERVED_USERNAMES.includes(name.toLowerCase())) return USERNAME_MESSAGES.reserved;
  return null;
}

const RESERVED_FOLDED = new Set(RESERVED_USERNAMES.map(foldName));

/**
 * The rule for a name a member chooses (an edit, an invite's first name): the display-username rule,
 * and no lookalike of a reserved name (`adm1n`, `sign_in`; decision 065). Addresses are looked up by
 * `displayUsernameProblem` alone, so a name held from before this rule keeps its page.
 */
export function chosenUsernameProblem(name: string): string | null {
  const problem = displayUsernameProblem(name);
  if (problem !== null) return problem;
  return RESERVED_FOLDED.has(foldName(name)) ? USERNAME_MESSAGES.reservedLookalike : null;
}

/** The bio rule: at most 300 characters (code points, after NFC), no control or text-direction characters. */
export function bioProblem(bio: string): string | null {
  // A bio is lines of text: no tab or carriage return either (the pages show it as typed).
  if (hasHiddenCharacters(bio) || /[\t\r]/.test(bio))
    return 'Bio cannot contain control or text-direction characters.';
  if ([...bio.normalize('NFC')].length > BIO_MAX) return `Bio must be at most ${BIO_MAX} characters.`;
  return null;
}

/** A member's profile on Threads itself. */
export function threadsProfileUrl(threadsUsername: string): string {
  return `https://www.threads.com/@${encodeURIComponent(threadsUsername)}`;
}

/** `GET /api/user/profile`: the signed-in user's own profile. */
export const OwnProfileSchema = z.extend(ProfileCollectionsSchema, {
  status: z.enum(PROFILE_STATUSES),
  threads_username: z.string(),
  display_username: z.nullable(z.string()),
  bio: z.string(),
});
export type OwnProfile = z.infer<typeof OwnProfileSchema>;

/** `GET /api/user/profile/{username}`: an approved member's public profile. */
export const PublicProfileSchema = z.extend(ProfileCollectionsSchema, {
  username: z.string(),
  threads_username: z.string(),
  bio: z.string(),
});
export type PublicProfile = z.infer<typeof PublicProfileSchema>;

/** `GET /api/admin/pending-users` items. */
export const PendingUserSchema = z.object({
  user_id: z.string(),
  threads_username: z.string(),
  display_username: z.nullable(z.string()),
  bio: z.string(),
  requested_at: z.string(),
});
export type PendingUser = z.infer<typeof PendingUserSchema>;
