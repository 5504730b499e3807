import { CATALOGUE_PAGE_SIZE, type CataloguePage } from '../../contract/catalogue-pages.ts';
import { cardSearchTerms, queryTerms } from '../../contract/search-terms.ts';
import { TAIL_SITE } from '../site-under-test.ts';
import { TAIL_BASE_COUNT, TAIL_THREADS } from '../tail-site/serve.ts';
import { cardTexts, servedManifest, servedPage, statusLine, threadCards } from './catalogue/helpers.ts';
import { expect, test, waitForHydration } from './fixtures.ts';

// The tail site (tests/tail-site/serve.ts): 80 threads of a full export and three approved since,
// put in front of the first pages of their lists (decision 037).
test.use({ baseURL: TAIL_SITE.publicUrl });

const TAIL = TAIL_THREADS.map(({ content }) => content);
const TOTAL = TAIL_BASE_COUNT + TAIL.length;

/** Every page file of All as served, and its cards' texts one after another. */
async function servedAll(request: Parameters<typeof servedPage>[0]) {
  const first = await servedPage(request, 'all', 1);
  const rest: CataloguePage[] = [];
  for (let page = 2; page <= first.pages; page++) rest.push(await servedPage(request, 'all', page));
  const cards = [first, ...rest].flatMap((page) => page.cards);
  return { first, cards, texts: cards.map((card) => card.content) };
}

test('the home shows the tail first, then 24 more at a time with no thread twice or missing', async ({
  page,
}) => {
  const { first, cards, texts } = await servedAll(page.request);
  // Every thread once in the files, so a grid equal to their order repeats and misses none.
  expect(new Set(cards.map((card) => card.id)).size).toBe(TOTAL);
  expect(first.tail).toBe(TAIL.length);
  expect(first.cards).toHaveLength(CATALOGUE_PAGE_SIZE + TAIL.length);
  expect(first.total).toBe(TOTAL);
  expect(texts).toHaveLength(TOTAL);

  await page.goto('/');
  // Pre-rendered: the tail's threads lead the first page.
  await expect(threadCards(page)).toHaveCount(CATALOGUE_PAGE_SIZE);
  expect((await cardTexts(page)).slice(0, TAIL.length)).toEqual(TAIL);
  expect(await cardTexts(page)).toEqual(texts.slice(0, CATALOGUE_PAGE_SIZE));

  await waitForHydration(page);
  await expect(statusLine(page)).toHaveText(`Showing ${CATALOGUE_PAGE_SIZE} of ${TOTAL} threads`);
  const more = page.getByRole('button', { name: 'Show more threads' });
  for (const shown of [48, 72, TOTAL]) {
    await more.click();
    await expect(threadCards(page)).toHaveCount(shown);
    await expect(statusLine(page)).toHaveText(`Showing ${shown} of ${TOTAL} threads`);
    // In list order: the first page's three extra threads, then page 2's, never one twice.
    expect(await cardTexts(page)).toEqual(texts.slice(0, shown));
  }
  await expect(more).toHaveCount(0);

  // Text holds the tail too (its first page 27 cards); Images none of it (its first page untouched).
  const [text, images] = await Promise.all([
    servedPage(page.request, 'text', 1),
    servedPage(page.request, 'images', 1),
  ]);
  expect([text.tail, images.tail]).toEqual([TAIL.length, undefined]);
  await page.getByRole('button', { name: 'Text', exact: true }).click();
  await expect(statusLine(page)).toHaveText(`Showing ${CATALOGUE_PAGE_SIZE} of ${text.total} text threads`);
  expect(await cardTexts(page)).toEqual(text.cards.slice(0, CATALOGUE_PAGE_SIZE).map((card) => card.content));
  await page.getByRole('button', { name: 'Images', exact: true }).click();
  await expect(statusLine(page)).toHaveText(
    `Showing ${CATALOGUE_PAGE_SIZE} of ${images.total} image threads`,
  );
  expect(await cardTexts(page)).toEqual(images.cards.map((card) => card.content));
});

test('a search finds a tail thread, the index does not hold it yet, and lists the tail first', async ({
  page,
}) => {
  const { cards } = await servedAll(page.request);
  const [axolotl] = TAIL_THREADS.filter(({ word }) => word === 'Axolotl');
  if (!axolotl) throw new Error('the tail site has no Axolotl thread');

  await page.goto('/');
  await waitForHydration(page);
  const box = page.getByRole('searchbox', { name: 'Search threads' });
  await box.fill(axolotl.word);
  await expect(statusLine(page)).toHaveText(`1 thread matches “${axolotl.word}”`);
  await expect(threadCards(page)).toHaveCount(1);
  await expect(threadCards(page).first()).toContainText(axolotl.content);

  // A word the tail and the full export share: the tail's threads first, then the index's.
  const terms = queryTerms('typography');
  const matching = cards.filter((card) => {
    const own = [...cardSearchTerms(card)];
    return terms.every((term) => own.some((word) => word.startsWith(term)));
  });
  expect(matching.length).toBeGreaterThan(TAIL.length);
  await box.fill('typography');
  await expect(statusLine(page)).toHaveText(`${matching.length} threads match “typography”`);
  await expect(threadCards(page)).toHaveCount(Math.min(matching.length, CATALOGUE_PAGE_SIZE));
  expect((await cardTexts(page)).slice(0, TAIL.length)).toEqual(TAIL);
  expect((await cardTexts(page)).sort()).toEqual(
    matching
      .slice(0, CATALOGUE_PAGE_SIZE)
      .map((card) => card.content)
      .sort(),
  );
});

test('the debug page names the manifest head the first pages carry', async ({ page, pageProblems }) => {
  // The tail site serves the site and its catalogue only: the debug page's API calls find nothing.
  pageProblems.allow(/404|Not Found/);
  const { first } = await servedAll(page.request);
  expect(first.head).toMatch(/.+/);
  await page.goto('/auth/debug/');
  await expect(page.getByText(`head:        ${first.head}`)).toBeVisible();
});

test('a home pre-rendered before an approval shows the served first page without being touched', async ({
  page,
}) => {
  // The server answers as it would after one more approval since the site was built: a longer tail
  // on the first page and a manifest naming it (the files are the served ones, one card added).
  const manifest = await servedManifest(page.request);
  const first = await servedPage(page.request, 'all', 1);
  const template = first.cards[0];
  if (!template) throw new Error('the first page has no card');
  const approved = {
    ...template,
    id: 'approved-after-the-build',
    content: 'Approved after the site was built, shown before it is built again.',
  };
  const head = 'approvedafterbld';
  await page.route('**/data/manifest.json', (route) =>
    route.fulfill({
      json: { ...manifest, head, counts: { ...manifest.counts, all: (manifest.counts?.all ?? 0) + 1 } },
    }),
  );
  await page.route('**/data/pages/all/1.json', (route) =>
    route.fulfill({
      json: {
        ...first,
        tail: (first.tail ?? 0) + 1,
        head,
        total: first.total + 1,
        cards: [approved, ...first.cards],
      },
    }),
  );
  await page.goto('/');
  // No pointer, key or focus reaches the grid: the freshness line sees the newer manifest and wakes it.
  await expect(threadCards(page).first()).toContainText(approved.content);
  await expect(statusLine(page)).toHaveText(`Showing ${CATALOGUE_PAGE_SIZE} of ${TOTAL + 1} threads`);
  expect((await cardTexts(page)).slice(1, 1 + TAIL.length)).toEqual(TAIL);
});
