import { z } from './zod.ts';

/** What a notice tells a member about: a decision on their invite or submission, a gem that left (the `notices.kind` column's values too). */
export const NOTICE_KIND_NAMES = [
  'invite_approved',
  'invite_rejected',
  'submission_approved',
  'submission_rejected',
  'gem_removed',
] as const;
export type NoticeKind = (typeof NOTICE_KIND_NAMES)[number];

/** Why a gem's thread left the catalogue. */
export const GEM_REMOVAL_CAUSES = ['gone_at_source', 'removed_by_author', 'approval_undone'] as const;
export type GemRemovalCause = (typeof GEM_REMOVAL_CAUSES)[number];

/** Most notices one page carries; older ones come with `before`. */
export const NOTICES_PAGE_MAX = 20;
/** How many first characters of a thread's text a notice keeps (it reads the same once the thread is gone). */
export const NOTICE_EXCERPT_MAX = 120;

/** What a notice row keeps in `details`: all optional, so rows written later with more still read. */
export interface NoticeDetails {
  reason?: string | null;
  permalink?: string | null;
  excerpt?: string | null;
  cause?: GemRemovalCause;
}

const count = () => z.int().check(z.nonnegative());
const noticeId = (field: string) =>
  z.int(`${field} must be a notice id`).check(z.positive(`${field} must be a notice id`));

/** One notice as the header shows it: its words, when, and the thread's link and first words. */
export const NoticeSchema = z.object({
  id: z.int(),
  kind: z.enum(NOTICE_KIND_NAMES),
  text: z.string(),
  excerpt: z.nullable(z.string()),
  link: z.nullable(z.string()),
  created_at: z.string(),
  read: z.boolean(),
});
export type Notice = z.infer<typeof NoticeSchema>;

/** `GET /api/user/notices`: newest first, NOTICES_PAGE_MAX at most; `next_before` asks for older ones. */
export const NoticePageSchema = z.object({
  notices: z.array(NoticeSchema),
  unread: count(),
  next_before: z.nullable(z.int()),
});
export type NoticePage = z.infer<typeof NoticePageSchema>;

/** `GET /api/user/notices` query: `before`, a notice id from `next_before`. */
export const NoticePageQuerySchema = z.strictObject({
  before: z.optional(z.string().check(z.regex(/^[1-9][0-9]{0,14}$/, 'before must be a notice id'))),
});

/** `GET /api/user/notices/unread` and the answer of marking read: how many are unread now. */
export const NoticeUnreadSchema = z.object({ unread: count() });
export type NoticeUnread = z.infer<typeof NoticeUnreadSchema>;

/** `POST /api/user/notices/read`: one notice (`id`), or every one up to and including `up_to`. */
export const NoticeReadSchema = z.strictObject({
  id: z.optional(noticeId('id')),
  up_to: z.optional(noticeId('up_to')),
});
export type NoticeReadRequest = z.input<typeof NoticeReadSchema>;

export const NOTICE_TEXTS = {
  button: 'Notices',
  /** The button's name as its content reads: the visible words and count first (WCAG 2.5.3). */
  label: (unread: number) => (unread === 0 ? 'Notices' : `Notices ${unread} unread`),
  unreadSuffix: 'unread',
  heading: 'Notices',
  empty: 'No notices yet.',
  loading: 'Loading notices...',
  loadFailed: 'The notices could not be loaded. Please try again.',
  retry: 'Try again',
  markAllRead: 'Mark all read',
  readFailed: 'The notices could not be marked read. Please try again.',
  viewThread: 'View the thread',
  unread: 'Unread',
  readBody: 'Name one notice (id) or the newest one to mark (up_to).',
} as const;

const REMOVAL_WORDS: Record<GemRemovalCause, string> = {
  gone_at_source: 'it was deleted on Threads',
  removed_by_author: 'its author removed it',
  approval_undone: 'its approval was taken back',
};

/** A notice in words: "Your submission was declined: <reason>", and so on. */
export function noticeText(kind: NoticeKind, details: NoticeDetails): string {
  const reason = details.reason?.trim();
  switch (kind) {
    case 'invite_approved':
      return 'Your invite was approved: you can now save gems and submit threads.';
    case 'invite_rejected':
      return reason ? `Your invite request was declined: ${reason}` : 'Your invite request was declined.';
    case 'submission_approved':
      return 'Your submission was approved and is now in the catalogue.';
    case 'submission_rejected':
      return reason ? `Your submission was declined: ${reason}` : 'Your submission was declined.';
    case 'gem_removed':
      return `A thread you saved as a gem left the catalogue: ${REMOVAL_WORDS[details.cause ?? 'gone_at_source']}.`;
  }
}

/** The first words of a thread's text, cut at NOTICE_EXCERPT_MAX characters; null when it has none. */
export function noticeExcerpt(text: string): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  const chars = [...flat];
  return chars.length <= NOTICE_EXCERPT_MAX ? flat : `${chars.slice(0, NOTICE_EXCERPT_MAX - 1).join('')}…`;
}
