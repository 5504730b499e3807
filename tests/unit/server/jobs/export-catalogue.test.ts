import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ManifestSchema } from '../../../../contract/manifest.ts';
import { ThreadCardListSchema, type ThreadCard } from '../../../../contract/thread-card.ts';
import { RECENT_COUNT, writeCatalogue } from '../../../../server/jobs/export-catalogue.ts';
import { buildSampleCards } from '../../../../scripts/sample/catalogue.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const read = async (dir: string, name: string) =>
  JSON.parse(await readFile(path.join(dir, name), 'utf8')) as unknown;

test('writes the spec files, split by the filter rule, with a manifest due one interval later', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
  const cards = buildSampleCards(60, now);
  const { manifest, dataChanged } = await writeCatalogue(dir, cards, { now, refreshIntervalMinutes: 90 });
  expect(dataChanged).toBe(true);

  expect((await readdir(dir)).sort()).toEqual([
    'manifest.json',
    'threads-all.json',
    'threads-images.json',
    'threads-recent.json',
    'threads-text.json',
  ]);
  const all = ThreadCardListSchema.parse(await read(dir, 'threads-all.json'));
  const text = ThreadCardListSchema.parse(await read(dir, 'threads-text.json'));
  const images = ThreadCardListSchema.parse(await read(dir, 'threads-images.json'));
  expect(all).toEqual(cards);
  expect(text.every((card) => card.image === null)).toBe(true);
  expect(images.every((card) => card.image !== null)).toBe(true);
  expect(text.length + images.length).toBe(all.length);

  expect(ManifestSchema.parse(await read(dir, 'manifest.json'))).toEqual(manifest);
  expect(manifest).toEqual({
    generatedAt: '2026-11-21T10:00:00.000Z',
    nextUpdate: '2026-11-21T11:30:00.000Z',
    counts: { all: 60, text: text.length, images: images.length },
  });
});

test('threads-recent.json holds the newest cards first, whatever the input order', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
  const cards = buildSampleCards(40, now).reverse();
  await writeCatalogue(dir, cards, { now, refreshIntervalMinutes: 60 });
  const recent = (await read(dir, 'threads-recent.json')) as ThreadCard[];
  expect(recent).toHaveLength(RECENT_COUNT);
  const times = recent.map((card) => Date.parse(card.timestamp ?? ''));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  expect(times[0]).toBe(Math.max(...cards.map((card) => Date.parse(card.timestamp ?? ''))));
});

test('leaves no temporary files behind', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
  await writeCatalogue(dir, [], { now, refreshIntervalMinutes: 60 });
  expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  expect(await read(dir, 'threads-all.json')).toEqual([]);
});

test('writing the same cards again changes no data file; a new date rewrites only the manifest', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
  const cards = buildSampleCards(12, now);
  await writeCatalogue(dir, cards, { now, refreshIntervalMinutes: 60 });
  const later = new Date(now.getTime() + 3_600_000);
  const again = await writeCatalogue(dir, cards, { now: later, refreshIntervalMinutes: 60 });
  expect(again.dataChanged).toBe(false);
  expect(ManifestSchema.parse(await read(dir, 'manifest.json')).generatedAt).toBe(later.toISOString());
  const changed = await writeCatalogue(dir, cards.slice(1), { now: later, refreshIntervalMinutes: 60 });
  expect(changed.dataChanged).toBe(true);
});
