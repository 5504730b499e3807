import { atom } from 'nanostores';
import { NOTICE_TEXTS, type Notice, type NoticePage, type NoticeUnread } from '../../contract/notices.ts';
import { api, failureText } from '../lib/api.ts';
import { $signingOut } from './auth.ts';

/** The header's unread count: null until known (or when it could not be read: no badge then). */
export const $noticeUnread = atom<number | null>(null);

/** The open list: loading, failed (with words), or the newest page as it was when opened. */
export type NoticeListState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; notices: Notice[] };
export const $noticeList = atom<NoticeListState>({ status: 'idle' });

/** Reads the unread count once the header knows someone is signed in. */
export async function loadNoticeCount(): Promise<void> {
  // Logout may already have ended the session: the count would only be refused (a 401).
  if ($signingOut.get()) return;
  try {
    $noticeUnread.set((await api<NoticeUnread>('/api/user/notices/unread')).unread);
  } catch {
    // Without a count the button still opens the list, which says what went wrong.
    $noticeUnread.set(null);
  }
}

/**
 * Loads the newest page for the opened list, then marks what it shows read (decision 056). The
 * notices keep their unread look while the list stays open, so the member sees which are new.
 */
export async function openNoticeList(): Promise<void> {
  $noticeList.set({ status: 'loading' });
  let page: NoticePage;
  try {
    page = await api<NoticePage>('/api/user/notices');
  } catch (error) {
    $noticeList.set({ status: 'error', message: `${NOTICE_TEXTS.loadFailed} ${failureText(error)}` });
    return;
  }
  $noticeList.set({ status: 'ready', notices: page.notices });
  $noticeUnread.set(page.unread);
  const newestUnread = page.notices.find((notice) => !notice.read);
  if (!newestUnread) return;
  try {
    const answer = await api<NoticeUnread>('/api/user/notices/read', {
      method: 'POST',
      body: { up_to: page.notices[0]?.id ?? newestUnread.id },
    });
    $noticeUnread.set(answer.unread);
  } catch {
    // Still unread on the server: the count stays, and the next opening tries again.
  }
}
