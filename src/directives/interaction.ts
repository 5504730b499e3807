import type { ClientDirective } from 'astro';
import { readStoredUser } from '../lib/user-storage.ts';

/** What a visitor does first when they mean to use an island: point at it, touch it, focus into it, type, scroll it. */
const FIRST_USE = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'wheel'] as const;

/**
 * `client:interaction`: hydrates an island whose HTML is already complete (pre-rendered cards) only
 * when the visitor first reaches for it, so loading the page runs none of its JavaScript. When the
 * address carries a query (?filter=, ?q=: state the island shows), it hydrates at idle instead, like
 * `client:idle`; so it does for a signed-in browser (a stored user), whose cards carry gem toggles
 * the HTML cannot know. A click that lands before hydration is held and clicked again once it runs.
 */
const interactionDirective: ClientDirective = (load, _options, element) => {
  let started = false;
  let heldClick: HTMLElement | null = null;
  const holdClick = (event: MouseEvent) => {
    if (!(event.target instanceof HTMLElement) || event.target.closest('a[href]')) return;
    heldClick = event.target;
    event.preventDefault();
    event.stopPropagation();
  };
  const run = async () => {
    element.addEventListener('click', holdClick, true);
    try {
      await (
        await load()
      )();
    } finally {
      element.removeEventListener('click', holdClick, true);
    }
    heldClick?.click();
  };
  const hydrate = () => {
    if (started) return;
    started = true;
    for (const type of FIRST_USE) element.removeEventListener(type, hydrate, true);
    void run();
  };
  if (window.location.search || readStoredUser()) {
    if ('requestIdleCallback' in window) window.requestIdleCallback(hydrate);
    else setTimeout(hydrate, 200);
    return;
  }
  for (const type of FIRST_USE) element.addEventListener(type, hydrate, { capture: true, passive: true });
};

export default interactionDirective;
