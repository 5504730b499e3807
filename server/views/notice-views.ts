import { noticeText, type Notice, type NoticeDetails } from '../../contract/notices.ts';
import type { NoticeRow } from '../repositories/notices.ts';

/** A stored notice as the API answers it: its words from `details`, never from the thread now. */
export function toNotice(row: NoticeRow): Notice {
  const details = row.details as NoticeDetails;
  return {
    id: row.id,
    kind: row.kind,
    text: noticeText(row.kind, details),
    excerpt: typeof details.excerpt === 'string' ? details.excerpt : null,
    link: typeof details.permalink === 'string' ? details.permalink : null,
    created_at: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}
