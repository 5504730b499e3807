import { useCallback, useEffect, useState } from 'react';

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

/**
 * The decisions' live region (decision 013): always in the page so assistive technology hears each
 * message, and never a blocking window.alert. It shows for a few seconds.
 */
export default function LiveAlert({ announcement }: { announcement: Announcement | null }) {
  return (
    <div role="alert" className="live-alert">
      {announcement && (
        <p key={announcement.id} className={`live-alert__message live-alert__message--${announcement.tone}`}>
          {announcement.text}
        </p>
      )}
    </div>
  );
}
