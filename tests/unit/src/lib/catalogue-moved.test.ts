import { expect, test } from 'vitest';
import type { Manifest } from '../../../../contract/manifest.ts';
import { catalogueMoved } from '../../../../src/lib/catalogue-moved.ts';

const served = (version?: string, head?: string): Manifest => ({
  generatedAt: '2026-11-25T06:00:00.000Z',
  nextUpdate: '2026-11-25T07:00:00.000Z',
  ...(version ? { version } : {}),
  ...(head ? { head } : {}),
});

test('a new version or a new tail moves the catalogue; the same one, or nothing to compare, does not', () => {
  expect(catalogueMoved({ version: 'v1', head: undefined }, served('v1'))).toBe(false);
  expect(catalogueMoved({ version: 'v1', head: 'h1' }, served('v1', 'h1'))).toBe(false);
  expect(catalogueMoved({ version: 'v1', head: undefined }, served('v1', 'h1'))).toBe(true);
  expect(catalogueMoved({ version: 'v1', head: 'h1' }, served('v1', 'h2'))).toBe(true);
  // A fold: the tail became a new version.
  expect(catalogueMoved({ version: 'v1', head: 'h1' }, served('v2'))).toBe(true);
  expect(catalogueMoved({ version: 'v1', head: undefined }, null)).toBe(false);
  expect(catalogueMoved({ version: undefined, head: undefined }, served('v2'))).toBe(false);
});
