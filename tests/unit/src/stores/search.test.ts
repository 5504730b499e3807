import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { cardSearchTerms, queryTerms } from '../../../../contract/search-terms.ts';
import type { ThreadCard } from '../../../../contract/thread-card.ts';
import { loadManifest } from '../../../../src/stores/manifest.ts';
import {
  $search,
  CATALOGUE_MOVED_PAUSES_MS,
  searchCatalogue,
  showMoreResults,
} from '../../../../src/stores/search.ts';
import {
  catalogueWithTail,
  MemoryStorage,
  serveCatalogue,
  tailCards,
} from '../../helpers/served-catalogue.ts';

const ids = (cards: readonly ThreadCard[]) => cards.map((card) => card.id);

/** The index's answer worked out the slow way over some cards: whole-word matches first, then order. */
function oracle(cards: readonly ThreadCard[], query: string): ThreadCard[] {
  const terms = queryTerms(query);
  return cards
    .map((card, position) => ({ card, position, own: [...cardSearchTerms(card)] }))
    .filter(({ own }) => terms.every((term) => own.some((word) => word.startsWith(term))))
    .map((hit) => ({ ...hit, exact: terms.filter((term) => hit.own.includes(term)).length }))
    .sort((a, b) => b.exact - a.exact || a.position - b.position)
    .map(({ card }) => card);
}

describe('the search with a tail on the first page (decision 037)', () => {
  beforeEach(() => vi.stubGlobal('localStorage', new MemoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  test('finds a tail card, first, and maps the index hits past the tail to their cards', async () => {
    const tail = tailCards(3, (n) => (n === 2 ? 'A Zeppelin poster, kerned by hand' : `Fresh thread ${n}`));
    const catalogue = await catalogueWithTail(tail, {
      seed: 21,
      edit: (cards) =>
        cards.map((card, i) =>
          i === 5
            ? { ...card, content: 'Zeppelin lettering on page one' }
            : i === 30
              ? { ...card, content: 'Zeppelins and their posters, on page two' }
              : card,
        ),
    });
    serveCatalogue(catalogue.dir);
    await loadManifest({ force: true });

    await searchCatalogue('zeppelin');
    const state = $search.get();
    expect(state.status).toBe('ready');
    // The tail's match first (the newest), then the index's: the whole word before the longer one.
    expect(ids(state.cards)).toEqual(['tail-2', catalogue.base[5]?.id, catalogue.base[30]?.id]);
    expect(state.positions).toHaveLength(3);
  });

  test('lists every match once, tail first, a page at a time through Show more', async () => {
    const tail = tailCards(4, (n) => (n % 2 === 1 ? `Design tokens ${n} for grids` : `Fresh thread ${n}`));
    const catalogue = await catalogueWithTail(tail, { seed: 22, count: 200 });
    const served = serveCatalogue(catalogue.dir);
    await loadManifest({ force: true });
    const expected = [...oracle(tail, 'design'), ...oracle(catalogue.base, 'design')];
    expect(expected.length).toBeGreaterThan(48);
    expect(ids(expected.slice(0, 2))).toEqual(['tail-1', 'tail-3']);

    await searchCatalogue('design');
    expect($search.get().positions).toHaveLength(expected.length);
    expect(ids($search.get().cards)).toEqual(ids(expected.slice(0, 24)));
    await showMoreResults();
    expect(ids($search.get().cards)).toEqual(ids(expected.slice(0, 48)));
    while ($search.get().cards.length < $search.get().positions.length) await showMoreResults();
    expect(ids($search.get().cards)).toEqual(ids(expected));
    // The index is the full export's: it was not rewritten for the tail, and was read once.
    expect(served.urls.filter((url) => url === '/data/search/index.json')).toHaveLength(1);
  });

  test('Show more after the tail changed searches again instead of reading positions past the old tail', async () => {
    const design = (n: number) => (n % 2 === 1 ? `Design tokens ${n} for grids` : `Fresh thread ${n}`);
    const before = await catalogueWithTail(tailCards(4, design), { seed: 24, count: 200 });
    const served = serveCatalogue(before.dir);
    await loadManifest({ force: true });
    await searchCatalogue('design');
    expect($search.get().tail).toBe(4);

    const after = await catalogueWithTail(
      tailCards(5, (n) => `Design review ${n}`),
      { seed: 24, count: 200 },
    );
    served.dir = after.dir;
    await loadManifest({ force: true });
    await showMoreResults();
    const expected = [...oracle(after.list.slice(0, 5), 'design'), ...oracle(after.base, 'design')];
    expect($search.get().status).toBe('ready');
    expect($search.get().tail).toBe(5);
    expect($search.get().positions).toHaveLength(expected.length);
    expect(ids($search.get().cards)).toEqual(ids(expected.slice(0, 24)));
  });

  test('a first page of another head than the manifest read searches again on the new manifest', async () => {
    const before = await catalogueWithTail(tailCards(2), { seed: 23 });
    const served = serveCatalogue(before.dir);
    await loadManifest({ force: true });
    const after = await catalogueWithTail(
      tailCards(3, (n) => `Zeppelin ${n}`),
      { seed: 23 },
    );
    served.dir = after.dir;
    await searchCatalogue('zeppelin');
    expect($search.get().status).toBe('ready');
    expect(ids($search.get().cards)).toEqual(['tail-1', 'tail-2', 'tail-3']);
  });

  test('a page the index points to that is gone (a shorter catalogue now) searches again on the new one', async () => {
    const quokka = (cards: ThreadCard[]) =>
      cards.map((card, index) => (index === 60 ? { ...card, content: 'Quokka grid studies' } : card));
    const before = await catalogueWithTail([], { count: 72, seed: 31, edit: quokka });
    const after = await catalogueWithTail([], { count: 30, seed: 31 });
    const served = serveCatalogue(before.dir);
    const answer = globalThis.fetch;
    // The catalogue moves on right after the first page was read: page 3 is no longer there.
    vi.stubGlobal('fetch', async (url: string) => {
      const response = await answer(url);
      if (url.endsWith('/data/pages/all/1.json')) served.dir = after.dir;
      return response;
    });
    await loadManifest({ force: true });
    await searchCatalogue('quokka');
    expect(served.urls).toContain('/data/pages/all/3.json');
    expect($search.get().status).toBe('ready');
    expect($search.get().cards).toEqual([]);
  });

  describe('instances behind a load balancer that disagree for a moment (decision 036)', () => {
    afterEach(() => vi.useRealTimers());

    /**
     * Serves the newer catalogue, except that the first `behind` reads of All's first page reach an
     * instance still on the older one; searches 'zeppelin' with the pauses on fake timers.
     */
    async function searchWhileBehind(behind: number) {
      const older = await catalogueWithTail(tailCards(2), { seed: 41 });
      const newer = await catalogueWithTail(
        tailCards(3, (n) => `Zeppelin ${n}`),
        { seed: 41 },
      );
      const served = serveCatalogue(newer.dir);
      const answer = globalThis.fetch;
      let firstPages = 0;
      vi.stubGlobal('fetch', async (url: string) => {
        if (!url.endsWith('/data/pages/all/1.json') || ++firstPages > behind) return answer(url);
        served.dir = older.dir;
        try {
          return await answer(url);
        } finally {
          served.dir = newer.dir;
        }
      });
      await loadManifest({ force: true });
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      let done = false;
      const searching = searchCatalogue('zeppelin').then(() => (done = true));
      // The pauses are timers; the reads are real file reads, given their turn between steps.
      while (!done) {
        await vi.advanceTimersByTimeAsync(100);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await searching;
      return { firstPages };
    }

    test('the search tries again after each pause until one version answers', async () => {
      const { firstPages } = await searchWhileBehind(CATALOGUE_MOVED_PAUSES_MS.length);
      expect(firstPages).toBe(CATALOGUE_MOVED_PAUSES_MS.length + 1);
      expect($search.get().status).toBe('ready');
      expect(ids($search.get().cards)).toEqual(['tail-1', 'tail-2', 'tail-3']);
    });

    test('an instance that stays behind past every pause ends in the error state', async () => {
      const { firstPages } = await searchWhileBehind(CATALOGUE_MOVED_PAUSES_MS.length + 1);
      expect(firstPages).toBe(CATALOGUE_MOVED_PAUSES_MS.length + 1);
      expect($search.get().status).toBe('error');
    });
  });
});
