import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { NOTICE_TEXTS } from '../../../contract/notices.ts';
import { $noticeList, $noticeUnread, loadNoticeCount, openNoticeList } from '../../stores/notices.ts';
import DateTime from './DateTime.tsx';
import '../../styles/notices.css';

/**
 * The header's notices (issue 22, decision 056): a button with the unread count that discloses the
 * newest notices. Escape closes it and gives focus back to the button; the list follows the button
 * in the page, so Tab moves from one into the other.
 */
export default function NoticesMenu() {
  const unread = useStore($noticeUnread);
  const list = useStore($noticeList);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    void loadNoticeCount();
  }, []);

  function toggle() {
    if (!open) void openNoticeList();
    setOpen(!open);
  }

  // Escape closes the open list wherever focus is (it may be on the page behind it) and gives focus
  // back to the button, as a disclosure should.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const count = unread ?? 0;
  return (
    <div className="notices">
      <button
        ref={button}
        type="button"
        className="button button--quiet notices__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={toggle}
      >
        {/* Named by its content, so the name starts with what is seen ("Notices 2"), not a label
            that differs from it (axe: label-content-name-mismatch). */}
        {NOTICE_TEXTS.button}
        {count > 0 && (
          <>
            {' '}
            <span className="notices__count">{count}</span>
            <span className="visually-hidden"> {NOTICE_TEXTS.unreadSuffix}</span>
          </>
        )}
      </button>
      <div id={panelId} className="notices__panel" hidden={!open}>
        <h2 className="notices__heading">{NOTICE_TEXTS.heading}</h2>
        {list.status === 'loading' && <p role="status">{NOTICE_TEXTS.loading}</p>}
        {list.status === 'error' && (
          <div role="alert">
            <p>{list.message}</p>
            <button type="button" className="button button--quiet" onClick={() => void openNoticeList()}>
              {NOTICE_TEXTS.retry}
            </button>
          </div>
        )}
        {list.status === 'ready' && list.notices.length === 0 && <p>{NOTICE_TEXTS.empty}</p>}
        {list.status === 'ready' && list.notices.length > 0 && (
          <ul className="notices__list">
            {list.notices.map((notice) => (
              <li key={notice.id} className={notice.read ? 'notice-item' : 'notice-item notice-item--unread'}>
                {!notice.read && <span className="notice-item__new">{NOTICE_TEXTS.unread}</span>}
                <p className="notice-item__text">{notice.text}</p>
                {notice.excerpt && <p className="notice-item__excerpt">“{notice.excerpt}”</p>}
                <p className="notice-item__meta">
                  <DateTime iso={notice.created_at} />
                  {notice.link && (
                    <a href={notice.link} rel="noopener noreferrer" target="_blank">
                      {NOTICE_TEXTS.viewThread}
                    </a>
                  )}
                </p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
