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
        card: style('.thread-card').backgroundColor,
        cardText: style('.thread-card__content').color,
        handle: style('.thread-card__handle').color,
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
    expect(contrast(colors.cardText, colors.card)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colors.handle, colors.card)).toBeGreaterThanOrEqual(4.5);
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
  test(`at ${width} px the grid has ${columns} column(s), no holes, and nothing overflows sideways`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    // Columns as drawn: the cards' left edges, and the space between cards one above the other.
    const layout = await page
      .locator('.thread-grid')
      .first()
      .evaluate((grid) => {
        const boxes = [...grid.querySelectorAll('article.thread-card')].map((card) =>
          card.getBoundingClientRect(),
        );
        const lefts = [...new Set(boxes.map((box) => Math.round(box.left)))].sort((a, b) => a - b);
        const gaps = lefts.flatMap((left) => {
          const column = boxes.filter((box) => Math.round(box.left) === left).sort((a, b) => a.top - b.top);
          return column.slice(1).map((box, index) => box.top - (column[index]?.bottom ?? 0));
        });
        return { columns: lefts.length, gaps };
      });
    expect(layout.columns).toBe(columns);
    // Masonry: each card starts one gap (1rem) below the card above it, whatever their heights.
    expect(layout.gaps.length).toBeGreaterThan(0);
    for (const gap of layout.gaps) expect(Math.abs(gap - 16)).toBeLessThanOrEqual(1);
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
