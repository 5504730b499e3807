import type { ClientDirective } from 'astro';
import { CATALOGUE_MOVED_EVENT } from '../lib/catalogue-moved.ts';
import { readStoredUser } from '../lib/user-storage.ts';
import { whenIdle } from '../lib/when-idle.ts';

/** What a visitor does first when they mean to use an island: point at it, touch it, focus into it, type, scroll it. */
const FIRST_USE = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'wheel'] as const;

/** Clicks `target` once the island has enabled it (its controls turn on in an effect after hydration). */
function clickWhenEnabled(target: HTMLElement): void {
  if (!(target instanceof HTMLButtonElement) || !target.disabled) {
    target.click();
    return;
  }
  const observer = new MutationObserver(() => {
    if (target.disabled) return;
    observer.disconnect();
    target.click();
  });
  observer.observe(target, { attributes: true, attributeFilter: ['disabled'] });
  // A control that stays disabled (nothing to filter) is left alone.
  setTimeout(() => observer.disconnect(), 5000);
}

/**
 * `client:interaction`: hydrates an island whose HTML is already complete (pre-rendered cards) only
 * when the visitor first reaches for it, so loading the page runs none of its JavaScript. When the
 * address carries a query (?filter=, ?q=: state the island shows), it hydrates at idle instead, like
 * `client:idle`; so it does for a signed-in browser (a stored user), whose cards carry gem toggles
 * the HTML cannot know, and when the served catalogue is newer than the pre-rendered one. A press or
 * click that lands before hydration is replayed once it runs.
 */
const interactionDirective: ClientDirective = (load, _options, element) => {
  let started = false;
  // The press to replay once the island runs: its click is held (a filter button would otherwise
  // submit its no-JavaScript form). A disabled control never gets a click, so a pressed button is
  // remembered at pointerdown too; `released` says its click is over (swallowed or held), so
  // replaying it cannot double a click that is still to come.
  let held: HTMLElement | null = null;
  let released = false;
  const holdPress = (event: PointerEvent) => {
    held = event.target instanceof Element ? event.target.closest('button') : null;
    released = false;
  };
  const release = () => {
    released = true;
  };
  const holdClick = (event: MouseEvent) => {
    if (!(event.target instanceof HTMLElement) || event.target.closest('a[href]')) return;
    [held, released] = [event.target, true];
    event.preventDefault();
    event.stopPropagation();
  };
  const holders = [
    ['pointerdown', holdPress],
    ['pointerup', release],
    ['click', holdClick],
  ] as const;
  for (const [type, listener] of holders) element.addEventListener(type, listener as EventListener, true);
  const run = async () => {
    try {
      await (
        await load()
      )();
    } finally {
      for (const [type, listener] of holders)
        element.removeEventListener(type, listener as EventListener, true);
    }
    if (held && released) clickWhenEnabled(held);
  };
  const hydrate = () => {
    if (started) return;
    started = true;
    for (const type of FIRST_USE) element.removeEventListener(type, hydrate, true);
    void run();
  };
  if (window.location.search || readStoredUser()) {
    whenIdle(hydrate);
    return;
  }
  for (const type of FIRST_USE) element.addEventListener(type, hydrate, { capture: true, passive: true });
  // A pre-render older than the served catalogue (freshness-line.ts tells): wake up to show it.
  document.addEventListener(CATALOGUE_MOVED_EVENT, hydrate, { once: true });
};

export default interactionDirective;
