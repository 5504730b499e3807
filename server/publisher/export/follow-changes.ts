import type { Manifest } from '../../../contract/manifest.ts';
import type { Database } from '../../db/client.ts';
import { createCatalogueRepository } from '../../repositories/catalogue.ts';
import { toThreadCard, type PublicCardOptions } from '../../views/thread-views.ts';
import type { CatalogueDates } from './catalogue-files.ts';
import { writeTail } from './catalogue-tail.ts';
import type { ExportState } from './export-state.ts';

/** Threads followed one by one before a full export is cheaper than a long first page. */
export const TAIL_MAX = 48;
/** A tail this old is folded into a full export (the whole files and the search index catch up). */
export const FOLD_AFTER_MS = 10 * 60_000;
/** An export state older than this is not trusted (the change log forgets what is older). */
export const STATE_MAX_AGE_MS = 12 * 60 * 60_000;

/**
 * Follows what changed in the catalogue since the last full export without reading it (decision
 * 037): nothing (only the manifest's dates are written), or threads approved since, all newer than
 * every exported card, which become the tail. Returns whether a data file changed, or null when only
 * a full export will do: a change to a thread that was approved (an edit, a removal, a deletion: it
 * may be in the full export, or be a tail card taken out), a thread approved deeper in the order,
 * too long or too old a tail, too old a state, another picture origin or display mode.
 */
export async function followChanges(
  db: Database,
  dir: string,
  {
    state,
    onDisk,
    dates,
    now,
    cards,
  }: {
    state: ExportState;
    onDisk: Manifest;
    dates: CatalogueDates;
    now: Date;
    cards: PublicCardOptions;
  },
): Promise<boolean | null> {
  if (now.getTime() - Date.parse(state.snapshotAt) > STATE_MAX_AGE_MS) return null;
  // Another API origin changes every card's picture address, which no row change logs.
  if (state.pictureBaseUrl !== (cards.pictureBase ?? null)) return null;
  // Another display mode changes every card that is not its author's choice (decision 070).
  if (state.postDisplay !== (cards.display ?? 'card')) return null;
  if (state.tailSince && now.getTime() - Date.parse(state.tailSince) > FOLD_AFTER_MS) return null;
  const changes = createCatalogueRepository(db);
  const changed = await changes.changedSince(state.snapshot, TAIL_MAX + 1);
  // A thread approved before its change may be in the full export: only a full one rewrites it.
  if (changed.length > TAIL_MAX || changed.some((thread) => thread.wasApproved)) return null;
  const ids = changed.map((thread) => thread.id);
  if (state.newestId && ids.includes(state.newestId)) return null;
  const placed = await changes.placed(ids, state.newestId);
  // A thread gone from the database, or one the order puts among the exported cards.
  if (placed.length < ids.length || placed.some((thread) => !thread.newer)) return null;
  const tail = placed
    .filter((thread) => thread.row.status === 'approved')
    .map((thread) => thread.row)
    .sort((a, b) => {
      const at = (b.postedAt ?? b.createdAt).getTime() - (a.postedAt ?? a.createdAt).getTime();
      return at !== 0 ? at : a.shortcode < b.shortcode ? -1 : a.shortcode > b.shortcode ? 1 : 0;
    })
    .map((row) => toThreadCard(row, cards));
  return writeTail(dir, state, tail, onDisk, dates, now);
}
