/**
 * `npm run data:sample -- --count N [--out DIR] [--seed S] [--images]`: writes a synthetic catalogue
 * of any size in the spec's file names. `--images` regenerates the sample images under public/.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { writeAtomically } from '../server/publisher/export/atomic-file.ts';
import { catalogueFiles } from '../server/publisher/export/catalogue-files.ts';
import { catalogueDatesFrom } from '../server/publisher/export/export-catalogue.ts';
import { buildSampleCards } from './sample/catalogue.ts';
import { sampleImageUrl, writeSampleImages } from './sample/images.ts';

const USAGE = 'usage: npm run data:sample -- [--count N] [--out DIR] [--seed S] [--images]';

function positiveInteger(value: string, name: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    console.error(`--${name} must be a whole number of at least 1 (got "${value}")\n${USAGE}`);
    process.exit(2);
  }
  return number;
}

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '48' },
    out: { type: 'string', default: 'data' },
    seed: { type: 'string', default: '7' },
    images: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const count = positiveInteger(values.count, 'count');
const seed = positiveInteger(values.seed, 'seed');
const publicDir = path.resolve('public');

if (values.images || !existsSync(path.join(publicDir, sampleImageUrl(1)))) {
  const files = await writeSampleImages(publicDir);
  console.log(
    `wrote ${files.length} sample images and avatars under ${path.relative('.', publicDir)}/sample`,
  );
}

const started = performance.now();
const cards = buildSampleCards(count, new Date(), seed);
// nextUpdate follows the configured refresh interval, like the curation job's exports.
const dates = catalogueDatesFrom(new Date(), loadConfig(process.env).refreshIntervalMinutes);
const { files, manifest } = catalogueFiles(cards, dates);
// Only the spec's files: the server derives the pages and the search index when it exports a sample.
const out = path.resolve(values.out);
await mkdir(out, { recursive: true });
for (const [name, body] of files.filter(([name]) => !name.includes('/'))) {
  await writeAtomically(path.join(out, name), body);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `wrote ${manifest.counts?.all} threads (${manifest.counts?.text} text, ${manifest.counts?.images} with images) to ${values.out}/ in ${seconds} s`,
);
