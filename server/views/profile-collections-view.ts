import type { ProfileCollections } from '../../contract/gems.ts';
import type { PostDisplay } from '../../contract/threads-embed.ts';
import type { ThreadRow } from '../repositories/threads.ts';
import { toThreadCard } from './thread-views.ts';

/** One member's gems and own threads as their profile carries them (contract/gems.ts). */
export function toProfileCollections(parts: {
  gems: readonly ThreadRow[];
  own: readonly ThreadRow[];
  gemCount: number;
  ownCount: number;
  display: PostDisplay;
}): ProfileCollections {
  const gemCards = parts.gems.map((row) => toThreadCard(row, { display: parts.display }));
  const threadCards = parts.own.map((row) => toThreadCard(row, { display: parts.display }));
  return {
    gems: gemCards.map((card) => card.id),
    own_threads: threadCards.map((card) => card.id),
    gem_cards: gemCards,
    thread_cards: threadCards,
    gem_count: parts.gemCount,
    thread_count: parts.ownCount,
  };
}
