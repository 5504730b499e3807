import type { GemList } from '../../contract/gems.ts';
import type { PostDisplay } from '../../contract/threads-embed.ts';
import type { ThreadRow } from '../repositories/threads.ts';
import { toThreadCard } from './thread-views.ts';

/** A member's newest visible gems as cards, with how many visible gems they have in all. */
export function toGemList(newest: readonly ThreadRow[], count: number, display: PostDisplay): GemList {
  return { cards: newest.map((row) => toThreadCard(row, { display })), count };
}
