import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PublishedDigest } from '../../../contract/digest-page.ts';
import type { Database } from '../../db/client.ts';
import { createDigestsRepository } from '../../repositories/digests.ts';
import { toThreadCard, type PublicCardOptions } from '../../views/thread-views.ts';
import { writeIfChanged } from './atomic-file.ts';

/**
 * Writes every published digest to `file` for the site, which renders `/digest/` and a page per
 * digest from it (decision 057): its note and the threads it froze that are still approved, as
 * cards. Two queries, whatever the number of digests. Returns how many, and whether the file changed.
 */
export async function exportPublishedDigests(
  db: Database,
  file: string,
  cards: PublicCardOptions,
): Promise<{ count: number; changed: boolean }> {
  const repository = createDigestsRepository(db);
  // A week with nothing approved is published (once, and mailed to nobody) but has no page.
  const rows = (await repository.listPublished()).filter((row) => (row.threadIds ?? []).length > 0);
  // One read of every digest's threads, whatever the number of digests.
  const threads = new Map(
    (await repository.threadsOf([...new Set(rows.flatMap((row) => row.threadIds ?? []))])).map((thread) => [
      thread.id,
      thread,
    ]),
  );
  const published: PublishedDigest[] = rows.flatMap((row) =>
    row.publishedAt
      ? [
          {
            id: row.id,
            year: row.year,
            week: row.week,
            published_at: row.publishedAt.toISOString(),
            note: row.note,
            cards: (row.threadIds ?? []).flatMap((id) => {
              const thread = threads.get(id);
              return thread ? [toThreadCard(thread, cards)] : [];
            }),
          },
        ]
      : [],
  );
  await mkdir(path.dirname(file), { recursive: true });
  const changed = await writeIfChanged(file, `${JSON.stringify(published, null, 2)}\n`);
  return { count: published.length, changed };
}
