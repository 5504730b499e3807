import type { PublicCardOptions } from '../../views/thread-views.ts';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ManifestSchema, type Manifest } from '../../../contract/manifest.ts';
import { ThreadCardListSchema } from '../../../contract/thread-card.ts';
import type { CatalogueSnapshot } from '../../repositories/catalogue.ts';
import { writeAtomically } from './atomic-file.ts';

/** Beside the public files, never served (PUBLIC_CATALOGUE_FILE does not match it). */
export const EXPORT_STATE_FILE = '.export-state.json';

const CountsSchema = z.object({
  all: z.number().int().nonnegative(),
  text: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
});

/**
 * What the last full export wrote and under which snapshot (decision 037): enough to lay the
 * threads approved since in front of it (the tail) without reading the catalogue again.
 */
const ExportStateSchema = z.object({
  format: z.literal(1),
  /** The snapshot the full export read under: changes it could not see are the tail's to follow. */
  snapshot: z.string().min(1),
  snapshotAt: z.iso.datetime({ offset: true }),
  /** The API origin the cards' picture addresses were written with (null: the site's own). */
  pictureBaseUrl: z.string().nullable(),
  /** The display the cards were written for (decision 070); a state written before it knew only cards. */
  postDisplay: z.enum(['card', 'embed']).default('card'),
  /** The full export's version (every page carries it). */
  version: z.string().min(1),
  /** Its first card in the catalogue order; null when it had none. */
  newestId: z.string().nullable(),
  counts: CountsSchema,
  topics: z.array(z.object({ tag: z.string(), slug: z.string(), count: z.number().int().positive() })),
  /**
   * Its threads-recent.json as written, which a tail is merged into. Kept as text: a parse through
   * the schema would reorder each card's keys, and the file would no longer be the full export's.
   */
  recent: z.string(),
  /** The lists whose first page now carries tail cards. */
  tailLists: z.array(z.string()),
  /** When the current tail began (null: no tail): a tail this old is folded by a full export. */
  tailSince: z.iso.datetime({ offset: true }).nullable(),
});
export type ExportState = z.infer<typeof ExportStateSchema>;

/** The export state in `dir`, or null when missing or unreadable (the next export is then a full one). */
export async function readExportState(dir: string): Promise<ExportState | null> {
  return readFile(path.join(dir, EXPORT_STATE_FILE), 'utf8').then(
    (body) => ExportStateSchema.safeParse(JSON.parse(body)).data ?? null,
    () => null,
  );
}

/** Saves the export state (after the manifest: a state never describes files not yet written). */
export async function writeExportState(dir: string, state: ExportState): Promise<void> {
  await writeAtomically(path.join(dir, EXPORT_STATE_FILE), `${JSON.stringify(state)}\n`);
}

/** Forgets the export state: the next export is a full one. */
export async function clearExportState(dir: string): Promise<void> {
  await rm(path.join(dir, EXPORT_STATE_FILE), { force: true });
}

/** The state a full export just left in `dir` (its manifest, recent file and first card). */
export async function stateAfterFullExport(
  dir: string,
  manifest: Manifest,
  snapshot: CatalogueSnapshot,
  { pictureBase, display = 'card' }: PublicCardOptions,
): Promise<ExportState> {
  const json = async (name: string): Promise<unknown> =>
    JSON.parse(await readFile(path.join(dir, ...name.split('/')), 'utf8')) as unknown;
  const first = (await json('pages/all/1.json')) as { cards?: { id?: unknown }[] };
  const newest = first.cards?.[0]?.id;
  const parsed = ManifestSchema.parse(manifest);
  const recent = await readFile(path.join(dir, 'threads-recent.json'), 'utf8');
  ThreadCardListSchema.parse(JSON.parse(recent));
  return {
    format: 1,
    snapshot: snapshot.snapshot,
    snapshotAt: snapshot.at.toISOString(),
    pictureBaseUrl: pictureBase ?? null,
    postDisplay: display,
    version: parsed.version ?? '',
    newestId: typeof newest === 'string' ? newest : null,
    counts: parsed.counts ?? { all: 0, text: 0, images: 0 },
    topics: parsed.topics ?? [],
    recent,
    tailLists: [],
    tailSince: null,
  };
}
