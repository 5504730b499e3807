/** Longest submitted link we look at; anything longer is refused before parsing. */
export const THREAD_URL_MAX_LENGTH = 2048;

/** The messages shown for a refused thread link. */
export const THREAD_URL_MESSAGES = {
  required: 'Thread URL is required',
  tooLong: 'The thread URL is too long.',
  notThreads:
    'Enter a link to a post on threads.com or threads.net, such as https://www.threads.com/@user/post/ABC123.',
  notHttps: 'The thread URL must start with https://.',
} as const;

/** A Threads post link in its one canonical form. */
export interface ThreadLink {
  /** Canonical: 'https://www.threads.com/@{user}/post/{code}' or 'https://www.threads.com/t/{code}' */
  url: string;
  /** Lower-case username without '@', or null for /t/ links. */
  username: string | null;
  shortcode: string;
}

/** Outcome of parsing a submitted link: the link, or the message to show. */
export type ThreadUrlResult = { ok: true; link: ThreadLink } | { ok: false; problem: string };

const THREADS_HOSTS: ReadonlySet<string> = new Set([
  'threads.com',
  'www.threads.com',
  'threads.net',
  'www.threads.net',
]);

const CANONICAL_ORIGIN = 'https://www.threads.com';
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// WHATWG URL silently strips tabs and newlines and rewrites '\' to '/', so the raw text must be
// refused before parsing; format characters and lone surrogates would hide what the link points at.
const FORBIDDEN_CHARACTER = /[\s\p{Cc}\p{Cf}\p{Cs}\\]/u;
const USERNAME = /^[A-Za-z0-9._]{1,30}$/;
const SHORTCODE = /^[A-Za-z0-9_-]{5,40}$/;

const refuse = (problem: string): ThreadUrlResult => ({ ok: false, problem });
const notThreads = (): ThreadUrlResult => refuse(THREAD_URL_MESSAGES.notThreads);

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * A post's link that names no author: what a submitted link becomes until Threads tells who wrote it
 * (issue 34). The handle typed into a link is anyone's guess, so it is never kept.
 */
export function authorlessUrl(shortcode: string): string {
  return `${CANONICAL_ORIGIN}/t/${shortcode}`;
}

/** Parses and normalises a submitted Threads post link. */
export function parseThreadUrl(input: string): ThreadUrlResult {
  const text = input.trim();
  if (text === '') return refuse(THREAD_URL_MESSAGES.required);
  if (text.length > THREAD_URL_MAX_LENGTH) return refuse(THREAD_URL_MESSAGES.tooLong);

  const scheme = SCHEME.exec(text)?.[1];
  if (scheme === undefined) return notThreads();
  if (scheme.toLowerCase() !== 'https') return refuse(THREAD_URL_MESSAGES.notHttps);
  if (FORBIDDEN_CHARACTER.test(text)) return notThreads();
  // 'https:threads.com' and 'https:/threads.com' parse as the same URL, but no real link looks like that.
  if (text.slice(6, 8) !== '//') return notThreads();

  // The raw authority must be exactly a Threads host: this refuses userinfo ('@'), any written port
  // (URL() hides ':443'), percent-encoding and IDNA tricks that URL() would fold into 'threads.com'.
  const rest = text.slice(8);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  if (!THREADS_HOSTS.has(authority.toLowerCase())) return notThreads();

  // The raw path, not URL().pathname: URL() resolves '..' and '%2e' segments, which would let
  // '/@a/post/x/../abc12' pass as a different post.
  const afterAuthority = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  const pathEnd = afterAuthority.search(/[?#]/);
  let path = pathEnd === -1 ? afterAuthority : afterAuthority.slice(0, pathEnd);
  if (path.endsWith('/')) path = path.slice(0, -1);

  // A second, independent opinion: whatever the browser or server would actually fetch.
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return notThreads();
  }
  if (
    parsed.protocol !== 'https:' ||
    parsed.username !== '' ||
    parsed.password !== '' ||
    parsed.port !== '' ||
    !THREADS_HOSTS.has(parsed.hostname)
  ) {
    return notThreads();
  }

  const segments: string[] = [];
  for (const raw of path.split('/').slice(1)) {
    const decoded = decodeSegment(raw);
    if (decoded === null) return notThreads();
    segments.push(decoded);
  }

  const [first, second, third, ...extra] = segments;
  if (extra.length > 0 || first === undefined || second === undefined) return notThreads();

  if (third === undefined) {
    if (first !== 't' || !SHORTCODE.test(second)) return notThreads();
    return { ok: true, link: { url: authorlessUrl(second), username: null, shortcode: second } };
  }

  if (!first.startsWith('@') || second !== 'post' || !SHORTCODE.test(third)) return notThreads();
  const username = first.slice(1);
  if (!USERNAME.test(username)) return notThreads();
  const lower = username.toLowerCase();
  return {
    ok: true,
    link: { url: `${CANONICAL_ORIGIN}/@${lower}/post/${third}`, username: lower, shortcode: third },
  };
}
