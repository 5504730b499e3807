import { MEDIA_TTL_SECONDS } from '../../site-under-test.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { expect, signedInPage, test, waitForHydration } from '../fixtures.ts';
import {
  cardFor,
  cardOnHome,
  cataloguePageHolding,
  liveRegion,
  openPendingReview,
  permalinkOf,
  refreshNow,
} from '../curation/helpers.ts';

test.describe.configure({ timeout: 240_000 });

// Decision 025 (threads-api.md section 10, media URLs expire): this server's simulated media
// addresses live MEDIA_TTL_SECONDS. A card shows its picture through the API's stable address, which
// hands out a fresh signed address, so the picture still shows after its first address died.
test("a card's image still shows after its first URL expired", async ({ newPage, pageProblems }) => {
  // The review queue shows fresh finds by the address Threads gave; one may die while the page is open.
  pageProblems.allow(/status of 403/);
  pageProblems.allow(/status of 409/); // a scheduled run may hold the curation lock for a moment

  const admin = await signedInPage(newPage, 'admin');
  const panel = await openPendingReview(admin);
  await refreshNow(panel.getByRole('region', { name: 'Curation' }));
  const withImage = panel
    .locator('.review-card')
    .filter({ has: admin.locator('img.review-row__thumb') })
    .first();
  await expect(withImage).toBeVisible();
  const permalink = await permalinkOf(withImage);
  const firstUrl = (await withImage.locator('img.review-row__thumb').getAttribute('src')) ?? '';
  expect(firstUrl).toMatch(/\/simulated-threads\/media\/design-\d{2}\.webp\?oe=[0-9A-F]+&_nc_sig=/);
  await cardFor(panel, permalink).getByRole('button', { name: TEXTS.approve }).click();
  await expect(liveRegion(admin)).toHaveText(TEXTS.threadApproved);

  // The catalogue is exported again with the approved thread on the Images list.
  await expect
    .poll(() => cataloguePageHolding(admin.request, 'images', permalink), {
      timeout: 90_000,
      intervals: [1_000],
    })
    .toBeGreaterThan(0);
  const onPage = await cataloguePageHolding(admin.request, 'images', permalink);

  // The first address dies, as Meta's do within hours.
  await expect
    .poll(async () => (await admin.request.get(firstUrl)).status(), {
      timeout: (MEDIA_TTL_SECONDS + 30) * 1000,
      intervals: [1_000],
    })
    .toBe(403);

  // A visitor opens the Images list: the card's picture loads.
  const visitor = await newPage();
  await visitor.goto('/?filter=images');
  await waitForHydration(visitor);
  const card = await cardOnHome(visitor, onPage, permalink);
  await expect(card).toHaveCount(1);
  const image = card.locator('img.thread-card__image');
  await image.scrollIntoViewIfNeeded();
  await expect(image).toHaveAttribute('src', /\/api\/media\/[0-9a-f-]{36}$/);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
});
