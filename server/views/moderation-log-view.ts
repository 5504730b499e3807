import { MODERATION_EXCERPT_MAX, type ModerationLogEntry } from '../../contract/moderation-log.ts';
import type { PostDisplay } from '../../contract/threads-embed.ts';
import type { DecisionRow } from '../repositories/moderation-log.ts';

/**
 * The start of a post's text for the log: whitespace collapsed, at most MODERATION_EXCERPT_MAX
 * characters, cut at a word where one is near, with an ellipsis when cut; null when there is no text.
 */
export function excerptOf(text: string): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return null;
  const chars = [...flat];
  if (chars.length <= MODERATION_EXCERPT_MAX) return flat;
  const cut = chars.slice(0, MODERATION_EXCERPT_MAX - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A decided thread as the public log shows it: the post, the decision, when and why; nothing about
 * members. Under PUBLIC_POST_DISPLAY=embed the log quotes no words of a post whose author did not
 * choose cards (decision 070): its link leads to the post on Threads.
 */
export function toModerationLogEntry(row: DecisionRow, display: PostDisplay = 'card'): ModerationLogEntry {
  const quoted = display === 'card' || row.shownAsCard;
  return {
    id: row.id,
    permalink: row.permalink,
    handle: row.username ? `@${row.username}` : null,
    excerpt: quoted ? excerptOf(row.text) : null,
    topic_tag: row.topicTag?.trim() || null,
    decision: row.status,
    decided_at: row.decidedAt.toISOString(),
    reason: row.status === 'rejected' ? row.reason : null,
  };
}
