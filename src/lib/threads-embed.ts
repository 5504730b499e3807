// Threads' official embed (decision 070): Meta's script turns each embed blockquote into a frame of
// the post. It is a third party's script, so it never runs before the first paint, and only once a
// post nears the screen or a visitor presses 'Show post'; until then (and without JavaScript) the
// card shows our placeholder. Only import-free modules: every page of an embed site loads this.
import {
  EMBED_CARD_ATTRIBUTE,
  EMBED_META_NAME,
  EMBED_QUOTE_CLASS,
  EMBED_SHOW_ATTRIBUTE,
  EMBEDS_ADDED_EVENT,
} from '../../contract/embed-names.ts';
import { whenIdle } from './when-idle.ts';

const QUOTE_ITSELF = `blockquote.${EMBED_QUOTE_CLASS}`;
const QUOTE = `[${EMBED_CARD_ATTRIBUTE}] ${QUOTE_ITSELF}`;

// About one viewport ahead: the frame is usually in place by the time the post is scrolled to.
const AHEAD = '100% 0px';

interface Embeds {
  /** Takes in the embed blockquotes now on the page (again: those already known are skipped). */
  scan(): void;
}

function isFocusLost(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

function createEmbeds(url: string): Embeds {
  // Each blockquote's run count when it was seen: a script run appended after that covers it.
  const seenAt = new WeakMap<Element, number>();
  let runs = 0;
  let queued = false;
  let failed = false;
  let previous: Promise<void> = Promise.resolve();
  let observer: IntersectionObserver | null = null;
  let lastFocus: EventTarget | null = null;

  // The first run loads Meta's script; a later one re-runs it for blockquotes added since. Meta
  // documents no call that scans the page again, so a fresh script element for the same address is
  // appended: UNCONFIRMED that Meta's script frames the new blockquotes when run again and leaves
  // the framed ones alone (the simulator's stand-in does). A run waits for the previous one to load.
  const run = () => {
    if (queued) return;
    queued = true;
    void previous.then(() => {
      queued = false;
      failed = false;
      runs++;
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      previous = new Promise((resolve) => {
        script.addEventListener('load', () => resolve(), { once: true });
        // Blocked or offline: the placeholders stay, with their link to the post; a press tries again.
        script.addEventListener(
          'error',
          () => {
            failed = true;
            resolve();
          },
          { once: true },
        );
      });
      document.body.append(script);
    });
  };

  const show = (quote: Element) => {
    if (failed || (seenAt.get(quote) ?? runs) >= runs) run();
  };

  // When Meta's script replaces a placeholder that held the focus (its 'Show post' button, its
  // link), the focus would fall back to the page's start: the card takes it instead.
  const guard = (quote: Element, card: HTMLElement) => {
    const mutations = new MutationObserver(() => {
      if (quote.isConnected) return;
      mutations.disconnect();
      observer?.unobserve(card);
      const held = lastFocus instanceof Node && !lastFocus.isConnected && quote.contains(lastFocus);
      if (held && card.isConnected && isFocusLost()) card.focus({ preventScroll: true });
    });
    mutations.observe(card, { childList: true, subtree: true });
  };

  const take = (quote: Element) => {
    const card = quote.closest<HTMLElement>(`[${EMBED_CARD_ATTRIBUTE}]`);
    if (!card) return;
    if (!seenAt.has(quote)) {
      seenAt.set(quote, runs);
      guard(quote, card);
    }
    observer?.observe(card);
  };

  const scan = () => document.querySelectorAll(QUOTE).forEach(take);

  document.addEventListener('focusin', (event) => (lastFocus = event.target), true);
  // Capture, on the document: before an island not yet hydrated holds the click to replay it later.
  document.addEventListener(
    'click',
    (event) => {
      const button =
        event.target instanceof Element ? event.target.closest(`[${EMBED_SHOW_ATTRIBUTE}]`) : null;
      const quote = button?.closest(QUOTE);
      if (!quote) return;
      take(quote);
      show(quote);
    },
    true,
  );
  whenIdle(() => {
    observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer?.unobserve(entry.target);
          const quote = entry.target.querySelector(QUOTE_ITSELF);
          if (quote) show(quote);
        }
      },
      { rootMargin: AHEAD },
    );
    scan();
  });
  return { scan };
}

/**
 * Frames the page's Threads embeds when the layout's meta names the script: nothing on a page with
 * none, until an island says it added some (EMBEDS_ADDED_EVENT).
 */
export function startThreadsEmbeds(): void {
  const url = document.querySelector<HTMLMetaElement>(`meta[name="${EMBED_META_NAME}"]`)?.content;
  if (!url) return;
  // Before the page is idle nothing is looked at: createEmbeds scans once it is.
  let embeds: Embeds | null = document.querySelector(QUOTE) ? createEmbeds(url) : null;
  let scanning = false;
  const added = () => {
    embeds ??= createEmbeds(url);
    // Every card of a page says so: one scan for them all.
    if (scanning) return;
    scanning = true;
    queueMicrotask(() => {
      scanning = false;
      embeds?.scan();
    });
  };
  document.addEventListener(EMBEDS_ADDED_EVENT, added);
}
