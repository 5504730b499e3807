/**
 * The weekly digest (issue 22): its ISO week, its address and the subscription's shapes, shared by
 * the server (selection, mail) and the site (the digest pages).
 */
import { hasHiddenCharacters } from './hidden-characters.ts';
import { GeneratedPostStatusSchema } from './submission.ts';
import { z } from './zod.ts';

/** A digest's id and address segment: ISO year and week, `2026-48`. */
export const DIGEST_ID = /^(\d{4})-(\d{2})$/;

export interface IsoWeek {
  year: number;
  week: number;
}

const DAY_MS = 86_400_000;

/** The ISO week (Monday first; week 1 holds the year's first Thursday) that `date` falls in, in UTC. */
export function isoWeekOf(date: Date): IsoWeek {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  // The Thursday of the same week decides the year.
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return { year: day.getUTCFullYear(), week: Math.ceil(((day.getTime() - yearStart) / DAY_MS + 1) / 7) };
}

/** Monday 00:00 UTC of the ISO week, and the next Monday (the end, exclusive). */
export function weekRange({ year, week }: IsoWeek): { start: Date; end: Date } {
  // January 4th is always in week 1.
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const start = new Date(jan4.getTime() - ((jan4.getUTCDay() || 7) - 1) * DAY_MS + (week - 1) * 7 * DAY_MS);
  return { start, end: new Date(start.getTime() + 7 * DAY_MS) };
}

/** The week before the one `date` falls in. */
export function previousWeek(date: Date): IsoWeek {
  return isoWeekOf(new Date(weekRange(isoWeekOf(date)).start.getTime() - DAY_MS));
}

export function digestId({ year, week }: IsoWeek): string {
  return `${year}-${String(week).padStart(2, '0')}`;
}

/** The week of a digest id, or null when it names none (`2026-54`, `26-1`). */
export function parseDigestId(id: string): IsoWeek | null {
  const match = DIGEST_ID.exec(id);
  if (!match) return null;
  const week = { year: Number(match[1]), week: Number(match[2]) };
  const { start } = weekRange(week);
  const back = isoWeekOf(start);
  return back.year === week.year && back.week === week.week ? week : null;
}

/** The digest page's address. */
export function digestPath(id: string): string {
  return `/digest/${id}`;
}

/** The longest address we keep (RFC 5321's path limit). */
const MAX_EMAIL = 254;

/** `POST /api/digest/subscribe`: the address that asks for the digest. */
export const DigestSubscribeSchema = z.object({
  email: z.string().check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(MAX_EMAIL, 'must be at most 254 characters'),
    z.regex(/^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/, 'must be an e-mail address'),
    // Nothing invisible gets mailed: controls (NUL, NEL), direction marks, joiners, noncharacters.
    z.refine(
      (email) => !hasHiddenCharacters(email) && !/\p{Cf}/u.test(email),
      'must be an e-mail address without control or invisible characters',
    ),
  ),
});

/**
 * A mailed link's query: the subscriber and the link's signature (decision 054). Loose on purpose:
 * a link cut short in a mail app is answered with a page in words (`mailLinkParts`), not a JSON error.
 */
export const MailLinkSchema = z.object({ s: z.optional(z.string()), t: z.optional(z.string()) });

/** A mailed link's subscriber id and signature when both are well formed, else null. */
export function mailLinkParts(query: { s?: string | undefined; t?: string | undefined }): {
  s: string;
  t: string;
} | null {
  const { s, t } = query;
  return s && t && /^[0-9a-f-]{36}$/.test(s) && /^[A-Za-z0-9_-]{43}$/.test(t) ? { s, t } : null;
}

/** What the subscription answers, whatever the address (it never tells whether one is known). */
export const DIGEST_TEXTS = {
  checkInbox:
    'Thanks. If this address can receive mail, a message with a link to confirm is on its way. Nothing is sent until you confirm.',
  subscribeTitle: 'Almost there',
  confirmTitle: 'Confirm your subscription',
  confirmButton: 'Confirm my subscription',
  confirmed: 'You are subscribed. The digest comes once a week; every mail has a link to stop it.',
  unsubscribeTitle: 'Stop the weekly digest',
  unsubscribeButton: 'Unsubscribe',
  unsubscribed: 'You are unsubscribed, and your address is deleted.',
  badLink: 'This link is not valid (it may have been cut, or the subscription is already gone).',
  noMail: 'Mail is not set up on this server, so the digest can only be read on the site.',
} as const;

/** The longest editor's note a digest carries. */
export const DIGEST_NOTE_MAX = 600;

/** `PUT /api/admin/digest/note`: the editor's note of the digest being prepared ('' for none). */
export const DigestNoteSchema = z.strictObject({
  note: z.string().check(
    z.maxLength(DIGEST_NOTE_MAX * 4, `must be at most ${DIGEST_NOTE_MAX} characters`),
    z.refine((note) => !hasHiddenCharacters(note), 'must not hold control or text-direction characters'),
    z.overwrite((note) => note.normalize('NFC').trim()),
    z.refine((note) => [...note].length <= DIGEST_NOTE_MAX, `must be at most ${DIGEST_NOTE_MAX} characters`),
  ),
});

/** `POST /api/admin/digest/trim`: leave a thread out of the digest being prepared, or put it back. */
export const DigestTrimSchema = z.strictObject({
  thread_id: z.uuid('must be a thread id'),
  excluded: z.boolean(),
});

/** A thread of a digest as the admin prepares it. */
export const DigestItemSchema = z.object({
  id: z.string(),
  author: z.string(),
  excerpt: z.string(),
  permalink: z.string(),
  gems: z.int().check(z.nonnegative()),
});

/** `GET /api/admin/digest`: the digest being prepared, what it would send, and the mail so far. */
export const DigestDraftSchema = z.object({
  id: z.string(),
  /** Monday 00:00 UTC of its week, and when it is published and mailed (ISO dates). */
  week_start: z.string(),
  publishes_at: z.string(),
  note: z.string(),
  /** What it holds now: the week's best so far, less the trimmed ones. */
  threads: z.array(DigestItemSchema),
  excluded: z.array(DigestItemSchema),
  /** Confirmed addresses that will receive it (0 without SMTP_URL). */
  subscribers: z.int().check(z.nonnegative()),
  mail_enabled: z.boolean(),
  /** The send log, every message so far. */
  mail: z.object({ queued: z.int(), sending: z.int(), sent: z.int(), failed: z.int() }),
  /** The curator's posts of published digests' links on Threads (decision 060). */
  threads_post: z.object({
    /** DIGEST_THREADS_POST: whether this digest's link will be posted when it is published. */
    enabled: z.boolean(),
    /** The newest digest's post: how publishing it went (its error for admins only). */
    last: z.nullable(
      z.object({
        digest_id: z.string(),
        status: GeneratedPostStatusSchema,
        thread_url: z.nullable(z.string()),
        error: z.nullable(z.string()),
      }),
    ),
  }),
});
export type DigestDraft = z.infer<typeof DigestDraftSchema>;
