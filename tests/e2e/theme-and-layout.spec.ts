import { mkdirSync } from 'node:fs';
import { expect, test, waitForHydration } from './fixtures.ts';

/** WCAG contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

mkdirSync('test-output/screenshots', { recursive: true });

for (const scheme of ['light', 'dark'] as const) {
  test(`the ${scheme} theme follows the system and keeps text readable (AA)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await waitForHydration(page);
    const colors = await page.evaluate(() => {
      const style = (selector: string) => getComputedStyle(document.querySelector(selector) as Element);
      return {
        page: style('body').backgroundColor,
        text: style('body').color,
        // A card with a picture sits on the page itself; one without shows its words on a surface.
        cardText: style('.thread-card--image .thread-card__content').color,
        handle: style('.thread-card__handle').color,
        face: style('.thread-card--text .thread-card__content').backgroundColor,
        faceText: style('.thread-card--text .thread-card__content').color,
        link: style('.site-footer a').color,
        footer: style('.site-footer').color,
        activeFilter: style('.filter-button[aria-pressed="true"]').color,
        activeFilterBg: style('.filter-button[aria-pressed="true"]').backgroundColor,
      };
    });
    const isDark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
    expect(isDark).toBe(scheme === 'dark');
    const pageLuminance = contrast(colors.page, 'rgb(0, 0, 0)');
    expect(scheme === 'dark' ? pageLuminance < 2 : pageLuminance > 15).toBe(true);
    expect(contrast(colors.text, colors.page)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colors.cardText, colors.page)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colors.handle, colors.page)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colors.faceText, colors.face)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colors.link, colors.page)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colors.footer, colors.page)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colors.activeFilter, colors.activeFilterBg)).toBeGreaterThanOrEqual(4.5);
    await page.screenshot({ path: `test-output/screenshots/home-${scheme}.png`, fullPage: false });
  });
}

for (const [width, columns] of [
  [320, 1],
  [420, 1],
  [800, 2],
  [1280, 3],
] as const) {
  test(`at ${width} px the grid has ${columns} column(s) read left to right, no holes, nothing overflows sideways`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    // Rows as drawn: the cards' tops in the page's order, and the left edges of the columns.
    const layout = await page
      .locator('.thread-grid')
      .first()
      .evaluate((grid) => {
        const boxes = [...grid.querySelectorAll('article.thread-card')].map((card) =>
          card.getBoundingClientRect(),
        );
        const lefts = [...new Set(boxes.map((box) => Math.round(box.left)))].sort((a, b) => a - b);
        const rows = [...new Set(boxes.map((box) => Math.round(box.top)))].map(
          (top) => boxes.filter((box) => Math.round(box.top) === top).length,
        );
        // Newest first, left to right: each card is right of the one before, or starts the next row.
        const inReadingOrder = boxes.every((box, index) => {
          const before = boxes[index - 1];
          if (!before) return true;
          return Math.round(box.top) === Math.round(before.top)
            ? box.left > before.left
            : box.top > before.top && Math.round(box.left) === lefts[0];
        });
        return { columns: lefts.length, rows, inReadingOrder };
      });
    expect(layout.columns).toBe(columns);
    expect(layout.inReadingOrder).toBe(true);
    // A page of 24 fills every row: no row but the last has a hole.
    expect(layout.rows.slice(0, -1).every((count) => count === columns)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test('screenshots at phone width in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    await waitForHydration(page);
    await page.screenshot({ path: `test-output/screenshots/home-phone-${scheme}.png` });
  }
  await expect(page.locator('article.thread-card').first()).toBeVisible();
});

test('the typeface is served from our origin, preloaded, and adds at most 60 KB', async ({ page }) => {
  const fonts: { url: string; bytes: number }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'font') return;
    fonts.push({ url: response.url(), bytes: (await response.body()).length });
  });
  await page.goto('/');
  await page.evaluate(() => document.fonts.ready);
  const preload = page.locator('link[rel="preload"][as="font"]');
  await expect(preload).toHaveCount(1);
  const href = new URL((await preload.getAttribute('href')) ?? '', page.url());
  expect(href.origin).toBe(new URL(page.url()).origin);
  // The preloaded file is the one the page's text is set in (the same @font-face, no second fetch).
  expect(await page.evaluate(() => document.fonts.check('16px "Geist Variable"'))).toBe(true);
  expect(fonts.map((font) => new URL(font.url).pathname)).toEqual([href.pathname]);
  expect(fonts.reduce((sum, font) => sum + font.bytes, 0)).toBeLessThanOrEqual(60 * 1024);
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Geist Variable"/);
});
