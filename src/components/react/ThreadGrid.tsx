import { useEffect, useRef } from 'react';
import { EAGER_IMAGE_COUNT } from '../../../contract/constants.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import ThreadCardView from './ThreadCardView.tsx';

const SKELETON_CARDS = 8;

interface Props {
  pages: readonly (readonly ThreadCard[])[];
  /**
   * A block whose first card takes the focus as soon as it is shown ('Show more threads'), if the
   * focus is still on the control that asked for it (inside `[data-asks-for-more]`) or was lost.
   */
  focusBlock?: number | null;
  /** Called once that card has the focus. */
  onFocused?: () => void;
}

/**
 * Cards in rows that read left to right, newest first (a CSS grid, threads.css). Each page is a
 * block of its own, so loading the next page never moves the cards already read.
 */
export default function ThreadGrid({ pages, focusBlock = null, onFocused }: Props) {
  const blocks = useRef(new Map<number, HTMLDivElement>());
  useEffect(() => {
    if (focusBlock === null) return;
    const card = blocks.current.get(focusBlock)?.querySelector<HTMLElement>('article.thread-card');
    if (!card) return;
    onFocused?.();
    // Only a focus that is still where the visitor asked for more (or lost with that button): one
    // who moved on meanwhile (typing a search, say) keeps their place.
    const active = document.activeElement;
    if (active && active !== document.body && !active.closest('[data-asks-for-more]')) return;
    // Focusable by script only: a card is not a stop of its own in the Tab order.
    card.tabIndex = -1;
    card.focus();
  }, [focusBlock, pages, onFocused]);

  return (
    <>
      {pages.map((cards, pageIndex) =>
        cards.length === 0 ? null : (
          <div
            className="thread-grid"
            key={cards[0]?.id ?? pageIndex}
            ref={(element) => {
              if (element) blocks.current.set(pageIndex, element);
              else blocks.current.delete(pageIndex);
            }}
          >
            {cards.map((card, index) => {
              const first = pageIndex === 0 && index < EAGER_IMAGE_COUNT;
              return (
                <ThreadCardView key={card.id} card={card} eager={first} priority={first && index === 0} />
              );
            })}
          </div>
        ),
      )}
    </>
  );
}

/** Placeholder cards while a list's first page loads; hidden from assistive technology (the status line speaks). */
export function ThreadGridSkeleton() {
  return (
    <div className="thread-grid" aria-hidden="true">
      {Array.from({ length: SKELETON_CARDS }, (_, index) => (
        <div className="thread-card thread-card--catalogue thread-card--skeleton" key={index}>
          <span className="skeleton__face" />
          <div className="skeleton__author">
            <span className="skeleton__avatar" />
            <span className="skeleton__line skeleton__line--short" />
          </div>
          <span className="skeleton__line" />
          <span className="skeleton__line skeleton__line--short" />
        </div>
      ))}
    </div>
  );
}

/** Splits a flat list of cards into page-sized blocks for `ThreadGrid`. */
export function inPages(cards: readonly ThreadCard[], size: number): ThreadCard[][] {
  const pages: ThreadCard[][] = [];
  for (let start = 0; start < cards.length; start += size) pages.push(cards.slice(start, start + size));
  return pages;
}
