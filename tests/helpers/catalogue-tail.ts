/**
 * Test-only: turns a catalogue folder written by writeCatalogue into one whose first pages carry a
 * tail (decision 037), the way the export does for threads approved since the last full export:
 * the new cards go in front of the first page of every list they belong to (All, Text/Images, their
 * topic), those pages say how many (`tail`) and which (`head`), and the manifest counts them and
 * carries the head. Pages 2..N, the version and the search index stay as the full export wrote them.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { topicListKey, type CatalogueListKey, type CataloguePage } from '../../contract/catalogue-pages.ts';
import { ManifestSchema, type Manifest } from '../../contract/manifest.ts';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { matchesFilter } from '../../contract/thread-filter.ts';
import { topicSlug } from '../../contract/topics.ts';
import { topicsWith } from '../../server/publisher/export/catalogue-tail.ts';

/** Writes a file and drops the precompressed siblings of its old body, which would be served instead. */
async function replace(file: string, body: unknown): Promise<void> {
  await writeFile(file, JSON.stringify(body));
  await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** The lists a card is shown in. */
function listsOf(card: ThreadCard): CatalogueListKey[] {
  const lists: CatalogueListKey[] = ['all'];
  if (matchesFilter(card, 'text')) lists.push('text');
  if (matchesFilter(card, 'images')) lists.push('images');
  const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
  if (slug) lists.push(topicListKey(slug));
  return lists;
}

/**
 * Puts `tail` (newest first, newer than every card in `dir`) in front of the first pages of their
 * lists in `dir`; returns the new manifest. `dir` must hold a full export (a manifest with version).
 */
export async function addCatalogueTail(dir: string, tail: readonly ThreadCard[]): Promise<Manifest> {
  const manifestFile = path.join(dir, 'manifest.json');
  const manifest = ManifestSchema.parse(await readJson(manifestFile));
  const { version, counts, topics } = manifest;
  if (!version || !counts || !topics) throw new Error(`${dir} holds no full export`);
  const head = createHash('sha256').update(JSON.stringify(tail)).digest('hex').slice(0, 16);

  const byList = new Map<CatalogueListKey, ThreadCard[]>();
  for (const card of tail) {
    for (const list of listsOf(card)) byList.set(list, [...(byList.get(list) ?? []), card]);
  }
  for (const [list, cards] of byList) {
    const file = path.join(dir, 'pages', list, '1.json');
    // A topic only the tail has gets a first (and only) page of its own.
    const page = (await readJson(file).catch(() => null)) as CataloguePage | null;
    const base = page ?? { version, list, page: 1, pages: 1, total: 0, cards: [] };
    const next: CataloguePage = {
      ...base,
      total: base.total + cards.length,
      tail: cards.length,
      head,
      cards: [...cards, ...base.cards],
    };
    if (!page) await mkdir(path.dirname(file), { recursive: true });
    await replace(file, next);
  }

  const next: Manifest = {
    ...manifest,
    head,
    counts: {
      all: counts.all + tail.length,
      text: counts.text + tail.filter((card) => matchesFilter(card, 'text')).length,
      images: counts.images + tail.filter((card) => matchesFilter(card, 'images')).length,
    },
    // The export's order: most threads first, then by slug.
    topics: topicsWith(topics, tail),
  };
  await replace(manifestFile, next);
  return next;
}
