import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface Announcement {
  text: string;
  tone: 'success' | 'error';
  /** Changes with every announcement, so the same text twice is read twice. */
  id: number;
}

const VISIBLE_MS = 6_000;

/** A non-blocking message for the live region: `announce(text, tone)` replaces the last one. */
export function useAnnouncement() {
  const [announcement, setAnnouncement] = useState<Announcement | null>(null);
  const announce = useCallback((text: string, tone: Announcement['tone'] = 'success') => {
    setAnnouncement((last) => ({ text, tone, id: (last?.id ?? 0) + 1 }));
  }, []);
  // The message is read at once; it leaves the screen after a while so it never covers the cards.
  useEffect(() => {
    if (!announcement) return;
    const timer = setTimeout(() => setAnnouncement(null), VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [announcement]);
  return { announcement, announce };
}

/** The controls a message must never cover while the keyboard is in them (a card may be taller than the window). */
const CONTROLS = 'input, textarea, select, button, a[href], [contenteditable]';

/** Whether a message at the bottom of the window would cover the control the keyboard is in. */
function coversFocus(message: HTMLElement): boolean {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || !focused.matches(CONTROLS)) return false;
  const box = message.getBoundingClientRect();
  const target = focused.getBoundingClientRect();
  return target.bottom > box.top - 8 && target.top < box.bottom;
}

/**
 * The decisions' live region (decision 013): always in the page so assistive technology hears each
 * message, and never a blocking window.alert. It shows for a few seconds at the bottom of the window,
 * or at its top when it would cover what the keyboard is in (the next item's reason form, say).
 */
export default function LiveAlert({ announcement }: { announcement: Announcement | null }) {
  const region = useRef<HTMLDivElement>(null);
  // Measured before paint, and again whenever the focus moves or the page scrolls while it shows (a
  // reason form opened or scrolled under it): the message never stays over the focused control.
  useLayoutEffect(() => {
    const box = region.current;
    if (!announcement || !box) return;
    // The class alone says where it is (React never changes className here): measured at the bottom.
    const place = () => {
      box.classList.remove('live-alert--top');
      box.classList.toggle('live-alert--top', coversFocus(box));
    };
    place();
    document.addEventListener('focusin', place);
    window.addEventListener('scroll', place, { passive: true });
    return () => {
      document.removeEventListener('focusin', place);
      window.removeEventListener('scroll', place);
    };
  }, [announcement]);
  return (
    <div role="alert" ref={region} className="live-alert">
      {announcement && (
        <p key={announcement.id} className={`live-alert__message live-alert__message--${announcement.tone}`}>
          {announcement.text}
        </p>
      )}
    </div>
  );
}
