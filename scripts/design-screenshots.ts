/**
 * The pictures of the design record (docs/design.md): the product on the committed sample, each page
 * at 375 and 1280 px, light and dark, first screen only, as JPEG into docs/design/<set>/.
 *
 *   npm run design:screenshots -- after      # or: before, or any name of a set
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PROJECT_ROOT } from '../server/publisher/build/build-site.ts';
import { startProductServer } from './bench/product-server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { freePort } from './free-port.ts';

/** A page of the record: a file name and the address it shows. */
export interface DesignShot {
  name: string;
  path: string;
}

export const DESIGN_PAGES: readonly DesignShot[] = [
  { name: 'home', path: '/' },
  { name: 'topic', path: '/topics/typography' },
  { name: 'about', path: '/about' },
];
export const DESIGN_WIDTHS = [375, 1280] as const;
export const DESIGN_SCHEMES = ['light', 'dark'] as const;

/** Heights of the first screen at each width: a phone's and a laptop's. */
const HEIGHTS: Record<(typeof DESIGN_WIDTHS)[number], number> = { 375: 812, 1280: 800 };

/**
 * Shoots every page at every width and scheme from `baseUrl` into `outDir` and returns the files
 * written (`<page>-<width>-<scheme>.jpg`), in order.
 */
export async function takeDesignScreenshots(
  baseUrl: string,
  outDir: string,
  pages: readonly DesignShot[] = DESIGN_PAGES,
): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const written: string[] = [];
  try {
    for (const scheme of DESIGN_SCHEMES) {
      for (const width of DESIGN_WIDTHS) {
        const context = await browser.newContext({
          viewport: { width, height: HEIGHTS[width] },
          colorScheme: scheme,
          deviceScaleFactor: 1,
        });
        const page = await context.newPage();
        for (const shot of pages) {
          const response = await page.goto(`${baseUrl}${shot.path}`, { waitUntil: 'networkidle' });
          if (!response?.ok()) throw new Error(`${shot.path} answered ${response?.status() ?? 'nothing'}`);
          // Fonts and pictures settle before the picture is taken, so it shows what a visitor sees.
          await page.evaluate(() => document.fonts.ready);
          const file = path.join(outDir, `${shot.name}-${width}-${scheme}.jpg`);
          await page.screenshot({ path: file, type: 'jpeg', quality: 78 });
          written.push(file);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return written;
}

async function main(): Promise<void> {
  const set = process.argv[2] ?? 'after';
  if (!/^[a-z0-9-]+$/.test(set)) {
    console.error(`A set is named in lower-case letters, digits and dashes, not '${set}'.`);
    process.exit(2);
  }
  const work = path.join(PROJECT_ROOT, 'test-output/design');
  await rm(path.join(work, 'data'), { recursive: true, force: true });
  console.log('Starting the product on the sample (a stale site is built first)...');
  const server = await startProductServer({
    port: await freePort(),
    siteDir: path.join(work, 'site'),
    dataDir: path.join(work, 'data'),
    core: null,
  });
  try {
    const outDir = path.join(PROJECT_ROOT, 'docs/design', set);
    const files = await takeDesignScreenshots(server.baseUrl, outDir);
    for (const file of files) console.log(`  ${path.relative(PROJECT_ROOT, file)}`);
    console.log(`${files.length} screenshots in ${path.relative(PROJECT_ROOT, outDir)}`);
  } finally {
    await server.stop();
  }
}

if (import.meta.main) await main();
