// Build-time only: reads the public catalogue that the home page is pre-rendered from.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema, type Manifest } from '../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../contract/thread-card.ts';
import { catalogueDir } from './build-env.ts';

async function readJson(name: string): Promise<unknown> {
  const file = path.resolve(catalogueDir, name);
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the catalogue file ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The first `limit` cards of threads-all.json and the total; a malformed file fails the build with its path. */
export async function readCatalogueHead(limit: number): Promise<{ cards: ThreadCard[]; total: number }> {
  const raw = await readJson('threads-all.json');
  if (!Array.isArray(raw))
    throw new Error(`${catalogueDir}/threads-all.json must hold a list of thread cards`);
  // Only the pre-rendered cards are validated in full: the whole file can hold 100,000 of them.
  const parsed = ThreadCardListSchema.safeParse(raw.slice(0, limit));
  if (!parsed.success) {
    throw new Error(
      `${catalogueDir}/threads-all.json has an invalid card: ${parsed.error.issues[0]?.message}`,
    );
  }
  return { cards: parsed.data, total: raw.length };
}

/** The manifest, or null when it is missing or malformed (the page then shows no freshness line). */
export async function readCatalogueManifest(): Promise<Manifest | null> {
  try {
    return ManifestSchema.parse(await readJson('manifest.json'));
  } catch {
    return null;
  }
}
