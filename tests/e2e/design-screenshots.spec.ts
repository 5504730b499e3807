import path from 'node:path';
import sharp from 'sharp';
import { DESIGN_SCHEMES, DESIGN_WIDTHS, takeDesignScreenshots } from '../../scripts/design-screenshots.ts';
import { expect, test } from './fixtures.ts';

// docs/design.md's pictures are taken by `npm run design:screenshots`: its shooting part, run here
// against the server under test, writes each width and scheme, and the themes really differ.
test('the design record’s screenshot script shoots every width in both themes', async ({ baseURL }) => {
  const outDir = path.resolve('test-output/design-shots');
  const files = await takeDesignScreenshots(baseURL ?? '', outDir, [{ name: 'home', path: '/' }]);
  expect(files.map((file) => path.basename(file))).toEqual(
    DESIGN_SCHEMES.flatMap((scheme) => DESIGN_WIDTHS.map((width) => `home-${width}-${scheme}.jpg`)),
  );
  const brightness: Record<string, number> = {};
  for (const file of files) {
    const image = sharp(file);
    const { width, format } = await image.metadata();
    expect(format).toBe('jpeg');
    expect(DESIGN_WIDTHS.some((expected) => expected === width)).toBe(true);
    expect(path.basename(file)).toContain(`-${width}-`);
    const { channels } = await image.stats();
    brightness[path.basename(file)] =
      channels.slice(0, 3).reduce((sum, channel) => sum + channel.mean, 0) / 3;
  }
  for (const width of DESIGN_WIDTHS) {
    expect(brightness[`home-${width}-dark.jpg`] ?? 255).toBeLessThan(
      (brightness[`home-${width}-light.jpg`] ?? 0) / 2,
    );
  }
});
