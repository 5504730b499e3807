import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CATALOGUE_PAGE_SIZE, type CataloguePage } from '../../../../contract/catalogue-pages.ts';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { fetchPage } from '../../../../src/stores/catalogue-pages.ts';
import { loadManifest } from '../../../../src/stores/manifest.ts';
import {
  $threadLists,
  listState,
  loadPages,
  refreshIfMoved,
  seedList,
} from '../../../../src/stores/threads.ts';
import {
  catalogueWithTail,
  MemoryStorage,
  serveCatalogue,
  tailCards,
} from '../../helpers/served-catalogue.ts';

const ids = (cards: readonly ThreadCard[]) => cards.map((card) => card.id);
const all = () => listState($threadLists.get(), 'all');
const pageFiles = (urls: string[]) => urls.filter((url) => url.startsWith('/data/pages/'));

describe('a list whose first page carries the tail (decision 037)', () => {
  beforeEach(() => {
    $threadLists.set({});
    vi.stubGlobal('localStorage', new MemoryStorage());
  });
  afterEach(() => vi.unstubAllGlobals());

  test('shows 24 cards at a time in list order, the tail first, none twice or missing', async () => {
    const catalogue = await catalogueWithTail(tailCards(3));
    const served = serveCatalogue(catalogue.dir);
    await loadManifest({ force: true });

    await loadPages('all', 1);
    expect(all().status).toBe('ready');
    expect(all().pages.map((page) => page.length)).toEqual([CATALOGUE_PAGE_SIZE]);
    expect(ids(all().pages.flat())).toEqual(ids(catalogue.list.slice(0, 24)));
    expect(ids(all().pages[0]?.slice(0, 3) ?? [])).toEqual(['tail-1', 'tail-2', 'tail-3']);
    // The total counts the tail: 60 cards of the full export and 3 approved since.
    expect(all().total).toBe(63);
    expect(all().head).toBe(catalogue.manifest.head);

    await loadPages('all', 2);
    expect(all().pages.map((page) => page.length)).toEqual([24, 24]);
    expect(ids(all().pages.flat())).toEqual(ids(catalogue.list.slice(0, 48)));

    await loadPages('all', 3);
    expect(all().pages.map((page) => page.length)).toEqual([24, 24, 15]);
    expect(ids(all().pages.flat())).toEqual(ids(catalogue.list));
    expect(new Set(ids(all().pages.flat())).size).toBe(63);
    // Each file once: the first page's extra cards were kept, not read again.
    expect(pageFiles(served.urls)).toEqual([
      '/data/pages/all/1.json',
      '/data/pages/all/2.json',
      '/data/pages/all/3.json',
    ]);
  });

  test('a list chosen again keeps the pages it showed', async () => {
    const catalogue = await catalogueWithTail(tailCards(3), { seed: 8, count: 130 });
    serveCatalogue(catalogue.dir);
    await loadManifest({ force: true });
    const text = () => listState($threadLists.get(), 'text');
    await loadPages('text', 2);
    const shown = ids(text().pages.flat());
    expect(shown.slice(0, 3)).toEqual(['tail-1', 'tail-2', 'tail-3']);
    expect(shown).toHaveLength(48);
    await loadPages('text', 1);
    expect(text().pages).toHaveLength(2);
    expect(ids(text().pages.flat())).toEqual(shown);
  });

  test('a list none of the tail is on keeps its first page as the full export wrote it', async () => {
    const catalogue = await catalogueWithTail(tailCards(3), { seed: 15 });
    const served = serveCatalogue(catalogue.dir);
    await loadManifest({ force: true });
    await loadPages('images', 1);
    const images = listState($threadLists.get(), 'images');
    expect(images.status).toBe('ready');
    expect(images.total).toBe(catalogue.manifest.counts?.images);
    expect(ids(images.pages.flat())).toEqual(
      ids(catalogue.base.filter((card) => card.type === 'image').slice(0, 24)),
    );
    expect(pageFiles(served.urls)).toEqual(['/data/pages/images/1.json']);
  });

  test('the pre-rendered first page is followed by the cards after it, read from page 1 and 2', async () => {
    const catalogue = await catalogueWithTail(tailCards(3), { seed: 9 });
    const served = serveCatalogue(catalogue.dir);
    await loadManifest({ force: true });
    seedList('all', {
      cards: catalogue.list.slice(0, 24),
      total: 63,
      version: catalogue.manifest.version ?? null,
      head: catalogue.manifest.head ?? null,
    });
    await loadPages('all', 2);
    expect(ids(all().pages.flat())).toEqual(ids(catalogue.list.slice(0, 48)));
    // Page 1 holds the three cards after the pre-rendered 24.
    expect(pageFiles(served.urls)).toEqual(['/data/pages/all/1.json', '/data/pages/all/2.json']);
  });

  test('without a tail the pre-rendered first page is never fetched again', async () => {
    const catalogue = await catalogueWithTail([], { seed: 10 });
    const served = serveCatalogue(catalogue.dir);
    await loadManifest({ force: true });
    seedList('all', {
      cards: catalogue.list.slice(0, 24),
      total: 60,
      version: catalogue.manifest.version ?? null,
    });
    await loadPages('all', 3);
    expect(ids(all().pages.flat())).toEqual(ids(catalogue.list));
    expect(pageFiles(served.urls)).toEqual(['/data/pages/all/2.json', '/data/pages/all/3.json']);
  });

  test('a pre-rendered list older than the served catalogue starts over on it; a current one loads nothing', async () => {
    const built = await catalogueWithTail(tailCards(3), { seed: 13 });
    const served = serveCatalogue(built.dir);
    await loadManifest({ force: true });
    const seed = () =>
      seedList('all', {
        cards: built.list.slice(0, 24),
        total: 63,
        version: built.manifest.version ?? null,
        head: built.manifest.head ?? null,
      });
    seed();
    await refreshIfMoved('all');
    expect(pageFiles(served.urls)).toEqual([]);
    expect(all().head).toBe(built.manifest.head);

    // Approved since the site was built: the served first pages carry a longer tail.
    const after = await catalogueWithTail(
      tailCards(4, (n) => `Approved after the build ${n}`),
      { seed: 13 },
    );
    served.dir = after.dir;
    await loadManifest({ force: true });
    await refreshIfMoved('all');
    expect(all().head).toBe(after.manifest.head);
    expect(all().total).toBe(64);
    expect(ids(all().pages.flat())).toEqual(ids(after.list.slice(0, 24)));
    expect(pageFiles(served.urls)).toEqual(['/data/pages/all/1.json']);
  });

  test('a first page of another head than the manifest read starts the list over on the new one', async () => {
    const before = await catalogueWithTail(tailCards(3), { seed: 11 });
    const served = serveCatalogue(before.dir);
    await loadManifest({ force: true });
    // An approval lands after the manifest was read: the served first pages carry a longer tail.
    const newer = tailCards(5, (n) => `Newer thread ${n} about kerning`);
    const after = await catalogueWithTail(newer, { seed: 11 });
    expect(after.manifest.version).toBe(before.manifest.version);
    served.dir = after.dir;

    await loadPages('all', 1);
    expect(all().status).toBe('ready');
    expect(all().head).toBe(after.manifest.head);
    expect(all().total).toBe(65);
    expect(ids(all().pages.flat())).toEqual(ids(after.list.slice(0, 24)));
    expect(served.urls.filter((url) => url === '/data/manifest.json')).toHaveLength(2);
  });

  test('a list read for one head starts over when the manifest names another', async () => {
    const before = await catalogueWithTail(tailCards(3), { seed: 12 });
    const served = serveCatalogue(before.dir);
    await loadManifest({ force: true });
    await loadPages('all', 2);
    expect(all().head).toBe(before.manifest.head);

    const after = await catalogueWithTail(
      tailCards(5, (n) => `Later thread ${n}`),
      { seed: 12 },
    );
    served.dir = after.dir;
    await loadManifest({ force: true });
    await loadPages('all', 3);
    // Never the old tail's pages followed by the new one's: all three pages are the new list's.
    expect(all().head).toBe(after.manifest.head);
    expect(ids(all().pages.flat())).toEqual(ids(after.list.slice(0, 65)));
    expect(all().pages.map((page) => page.length)).toEqual([24, 24, 17]);
  });

  test('a cached first page written for another head is not used', async () => {
    const before = await catalogueWithTail(tailCards(3), { seed: 13 });
    const served = serveCatalogue(before.dir);
    const version = before.manifest.version ?? '';
    const first = await fetchPage('all', 1, { version, head: before.manifest.head ?? null });
    const asked = served.urls.length;
    // Cached: asked again for the same head, nothing is fetched.
    expect(await fetchPage('all', 1, { version, head: before.manifest.head ?? null })).toEqual(first);
    expect(served.urls).toHaveLength(asked);

    const after = await catalogueWithTail(tailCards(4), { seed: 13 });
    served.dir = after.dir;
    const fresh: CataloguePage = await fetchPage('all', 1, { version, head: after.manifest.head ?? null });
    expect(served.urls).toHaveLength(asked + 1);
    expect(fresh.head).toBe(after.manifest.head);
    expect(fresh.tail).toBe(4);
    // A later page is not the tail's: the head does not matter for it.
    await fetchPage('all', 2, { version });
    await fetchPage('all', 2, { version, head: 'another' });
    expect(served.urls).toHaveLength(asked + 2);
  });

  test('a cached page with a malformed tail is not used', async () => {
    const catalogue = await catalogueWithTail(tailCards(3), { seed: 14 });
    const served = serveCatalogue(catalogue.dir);
    const version = catalogue.manifest.version ?? '';
    const head = catalogue.manifest.head ?? null;
    const first = await fetchPage('all', 1, { version, head });
    localStorage.setItem(
      'curated-threads:page:all:1',
      JSON.stringify({ savedAt: Date.now(), value: { ...first, tail: '3' } }),
    );
    expect(await fetchPage('all', 1, { version, head })).toEqual(first);
    expect(pageFiles(served.urls)).toEqual(['/data/pages/all/1.json', '/data/pages/all/1.json']);
  });
});
