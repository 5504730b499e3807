import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../../contract/manifest.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { matchesFilter } from '../../contract/thread-filter.ts';
import { writeAtomically } from './atomic-file.ts';

/** How many of the newest cards go into threads-recent.json. */
export const RECENT_COUNT = 24;

export interface CatalogueOptions {
  now: Date;
  refreshIntervalMinutes: number;
}

function newestFirst(cards: readonly ThreadCard[]): ThreadCard[] {
  return cards
    .map((card, index) => ({ card, index, time: card.timestamp ? Date.parse(card.timestamp) : -Infinity }))
    .sort((a, b) => b.time - a.time || a.index - b.index)
    .map(({ card }) => card);
}

/**
 * Writes the public catalogue (spec section 7 file names) into `dir`. The manifest is written last,
 * so a manifest on disk always describes data files that are already complete.
 */
export async function writeCatalogue(
  dir: string,
  cards: readonly ThreadCard[],
  { now, refreshIntervalMinutes }: CatalogueOptions,
): Promise<Manifest> {
  await mkdir(dir, { recursive: true });
  const text = cards.filter((card) => matchesFilter(card, 'text'));
  const images = cards.filter((card) => matchesFilter(card, 'images'));
  const files: [string, unknown][] = [
    ['threads-all.json', cards],
    ['threads-text.json', text],
    ['threads-images.json', images],
    ['threads-recent.json', newestFirst(cards).slice(0, RECENT_COUNT)],
  ];
  for (const [name, value] of files) await writeAtomically(path.join(dir, name), JSON.stringify(value));

  const manifest: Manifest = {
    generatedAt: now.toISOString(),
    nextUpdate: new Date(now.getTime() + refreshIntervalMinutes * 60_000).toISOString(),
    counts: { all: cards.length, text: text.length, images: images.length },
  };
  await writeAtomically(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
