import { createHash } from 'node:crypto';
import { mkdir, readFile, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { topicListKey, type CataloguePage } from '../../../contract/catalogue-pages.ts';
import type { Manifest } from '../../../contract/manifest.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import { matchesFilter } from '../../../contract/thread-filter.ts';
import { topicSlug, type CatalogueTopic } from '../../../contract/topics.ts';
import { removeWithSiblings, writeIfChanged } from './atomic-file.ts';
import { MANIFEST_FILE, manifestBody, RECENT_COUNT, type CatalogueDates } from './catalogue-files.ts';
import { writeExportState, type ExportState } from './export-state.ts';
import { NewestCards } from './newest-cards.ts';

/** The lists a card belongs to: All, Text or Images, and its topic's. */
function listsOf(card: ThreadCard): string[] {
  const lists = ['all'];
  for (const filter of ['text', 'images'] as const) if (matchesFilter(card, filter)) lists.push(filter);
  const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
  if (slug) lists.push(topicListKey(slug));
  return lists;
}

/** The digest that names a tail (the manifest's and its first pages' `head`). */
export function tailHead(cards: readonly ThreadCard[]): string {
  return createHash('sha256')
    .update(`tail\n${JSON.stringify(cards)}`)
    .digest('hex')
    .slice(0, 16);
}

/** A list's first page as the full export wrote it: its own cards, page count and total. */
async function basePage(
  dir: string,
  list: string,
): Promise<{ cards: ThreadCard[]; pages: number; total: number } | null> {
  const body = await readFile(path.join(dir, 'pages', ...list.split('/'), '1.json'), 'utf8').catch(
    () => null,
  );
  if (body === null) return null;
  const page = JSON.parse(body) as CataloguePage;
  const tail = page.tail ?? 0;
  return { cards: page.cards.slice(tail), pages: page.pages, total: page.total - tail };
}

/** The manifest's topics with the tail's counted in (a tail-only topic named as its first card spells it). */
export function topicsWith(base: readonly CatalogueTopic[], tail: readonly ThreadCard[]): CatalogueTopic[] {
  const topics = new Map(base.map((topic) => [topic.slug, { ...topic }]));
  for (const card of tail) {
    const slug = card.topic_tag ? topicSlug(card.topic_tag) : null;
    if (!slug || !card.topic_tag) continue;
    const topic = topics.get(slug) ?? { tag: card.topic_tag, slug, count: 0 };
    topic.count += 1;
    topics.set(slug, topic);
  }
  return [...topics.values()].sort((a, b) => b.count - a.count || a.slug.localeCompare(b.slug));
}

/**
 * Lays `tail` (the threads approved since the full export, all newer than its cards, in catalogue
 * order) in front of the first page of each list they belong to, and restores the first pages of the
 * lists a previous tail touched; rewrites threads-recent.json and the manifest (counts, topics,
 * `head`). Every other file stays as the full export wrote it. Returns whether the tail changed.
 */
export async function writeTail(
  dir: string,
  state: ExportState,
  tail: readonly ThreadCard[],
  onDisk: Manifest,
  dates: CatalogueDates,
  now: Date,
): Promise<boolean> {
  const dated = { generatedAt: dates.generatedAt.toISOString(), nextUpdate: dates.nextUpdate.toISOString() };
  const head = tail.length > 0 ? tailHead(tail) : undefined;
  if (head === onDisk.head) {
    await writeIfChanged(path.join(dir, MANIFEST_FILE), manifestBody({ ...onDisk, ...dated }));
    return false;
  }
  const own = new Map<string, ThreadCard[]>();
  for (const card of tail) for (const list of listsOf(card)) own.set(list, [...(own.get(list) ?? []), card]);
  for (const list of new Set([...state.tailLists, ...own.keys()])) {
    const cards = own.get(list) ?? [];
    const base = await basePage(dir, list);
    const file = path.join(dir, 'pages', ...list.split('/'), '1.json');
    if (!base?.total && cards.length === 0 && list.startsWith('topics/')) {
      // A topic only the tail had is gone with it.
      await removeWithSiblings(file);
      await rmdir(path.dirname(file)).catch(() => {});
      continue;
    }
    const page: CataloguePage = {
      version: state.version,
      list: list as CataloguePage['list'],
      page: 1,
      pages: base?.pages ?? 1,
      total: (base?.total ?? 0) + cards.length,
      ...(cards.length > 0 && head ? { tail: cards.length, head } : {}),
      cards: [...cards, ...(base?.cards ?? [])],
    };
    await mkdir(path.dirname(file), { recursive: true });
    await writeIfChanged(file, JSON.stringify(page));
  }
  const recent = new NewestCards(RECENT_COUNT);
  // The tail first: of equal times the earlier in the catalogue comes first.
  const baseRecent = JSON.parse(state.recent) as ThreadCard[];
  for (const card of [...tail, ...baseRecent]) recent.add(card.timestamp, JSON.stringify(card));
  await writeIfChanged(path.join(dir, 'threads-recent.json'), recent.json());
  const counts = { ...state.counts };
  for (const card of tail) {
    counts.all += 1;
    if (matchesFilter(card, 'text')) counts.text += 1;
    if (matchesFilter(card, 'images')) counts.images += 1;
  }
  const manifest: Manifest = {
    ...dated,
    counts,
    version: state.version,
    ...(head ? { head } : {}),
    pageSize: onDisk.pageSize,
    topics: topicsWith(state.topics, tail),
  };
  await writeIfChanged(path.join(dir, MANIFEST_FILE), manifestBody(manifest));
  await writeExportState(dir, {
    ...state,
    tailLists: [...own.keys()],
    tailSince: tail.length > 0 ? (state.tailSince ?? now.toISOString()) : null,
  });
  return true;
}
