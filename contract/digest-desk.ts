/**
 * The admin's Digest tab (issue 22): its words, and the week and publication time said in words.
 * Shared by the island and the browser tests, so both agree on every word.
 */
import { DIGEST_NOTE_MAX, weekRange, type DigestDraft } from './digest.ts';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAY_MS = 86_400_000;

/**
 * A day in UTC, in words: "Monday 30 November". Written out here rather than by Intl, whose
 * punctuation differs between locales and ICU versions; the digest's times are UTC for everyone.
 */
export function utcDayInWords(date: Date): string {
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/** "Monday 30 November at 00:00 UTC". */
export function utcMomentInWords(date: Date): string {
  const time = `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return `${utcDayInWords(date)} at ${time} UTC`;
}

/** "Week 48 of 2026: Monday 23 November to Sunday 29 November". */
export function draftWeekInWords(draft: Pick<DigestDraft, 'id'>): string {
  const [year, week] = draft.id.split('-').map(Number);
  const { start, end } = weekRange({ year: year ?? 0, week: week ?? 0 });
  return `Week ${week} of ${year}: ${utcDayInWords(start)} to ${utcDayInWords(new Date(end.getTime() - DAY_MS))}`;
}

/**
 * When the digest goes out, in words. Once that time has passed it waits for the hourly
 * `publish-digest` job, so the sentence says so instead of naming a moment in the past.
 */
export function publishesInWords(publishesAt: string, now: Date): string {
  const at = new Date(publishesAt);
  return at.getTime() > now.getTime()
    ? `Publishes ${utcMomentInWords(at)}`
    : `Due since ${utcMomentInWords(at)}: it is published within the hour`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const DIGEST_DESK_TEXTS = {
  tab: 'Digest',
  heading: 'The weekly digest',
  loadFailed: 'The digest could not be loaded.',
  threadsHeading: 'Threads it will hold',
  threadsHelp:
    "The week's approved threads with the most gems, then the newest. Leave one out and the next best takes its place.",
  noThreads: 'No approved threads this week yet. Threads approved this week appear here.',
  excludedHeading: 'Left out',
  noExcluded: 'Nothing is left out.',
  leaveOut: 'Leave out',
  putBack: 'Put back',
  /** The hidden rest of a row's button name: "Leave out the thread by @ana". */
  threadBy: (author: string) => ` the thread by ${author}`,
  viewOnThreads: 'View on Threads',
  /** The hidden rest of a row's link name: "View on Threads (the post by @ana)". */
  postBy: (author: string) => ` (the post by ${author})`,
  noText: 'No text (a link or a picture only).',
  gems: (count: number) => plural(count, 'gem', 'gems'),
  leftOut: (author: string) => `Left out: the thread by ${author}.`,
  putBackDone: (author: string) => `Put back: the thread by ${author}.`,
  trimFailed: 'The thread could not be moved. Please try again.',
  noteLabel: "Editor's note",
  noteHelp: 'Shown above the threads, in the mail and on the digest page. Leave it empty for none.',
  noteCount: (length: number) => `${length} / ${DIGEST_NOTE_MAX} characters`,
  noteOver: (over: number) => ` (${over} too many)`,
  saveNote: 'Save note',
  saving: 'Saving...',
  noteSaved: 'Note saved.',
  noteFailed: 'The note could not be saved. Please try again.',
  /** After a 409: the digest was published meanwhile. */
  loadNext: 'Show the digest being prepared now',
  mailHeading: 'Mail',
  subscribers: (count: number) =>
    `${plural(count, 'confirmed subscriber', 'confirmed subscribers')} will receive it by mail.`,
  mailLog: (mail: DigestDraft['mail']) =>
    `Mail so far: ${mail.sent} sent, ${mail.queued} waiting, ${mail.sending} sending, ${mail.failed} failed.`,
  noMail:
    'Mail is not set up on this server (SMTP_URL is not set), so nobody can subscribe: the digest is only published on the site.',
  threadsPostHeading: 'On Threads',
  threadsPostOn: "When it is published, the curator's account posts its link on Threads.",
  threadsPostOff:
    "The curator's account does not post the digest on Threads on this server (DIGEST_THREADS_POST is not true).",
  /** How the newest digest's post went: "Week 48 of 2026: posted." */
  threadsPostLast: (digestId: string, status: 'pending' | 'published' | 'failed') => {
    const [year, week] = digestId.split('-').map(Number);
    const how = { pending: 'waiting to be posted.', published: 'posted.', failed: 'posting failed:' }[status];
    return `Week ${week} of ${year}: ${how}`;
  },
  viewDigestPost: 'View the post on Threads',
} as const;
