// Build-time only: reads the published digests the server exported (server/publisher/export/export-digests.ts).
import { PublishedDigestsSchema, type PublishedDigest } from '../../contract/digest-page.ts';
import { readExportedList } from './build-data-file.ts';

/** Every published digest, newest first; none when the server has not exported any. */
export function readPublishedDigests(): Promise<PublishedDigest[]> {
  return readExportedList('DIGESTS_FILE', PublishedDigestsSchema, 'digests');
}

/** One published digest by its id (`2026-48`), or null. */
export async function readPublishedDigest(id: string): Promise<PublishedDigest | null> {
  return (await readPublishedDigests()).find((digest) => digest.id === id) ?? null;
}
