import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { CARD_IMAGE_SIZE } from '../../contract/constants.ts';
import { SAMPLE_AUTHORS } from './corpus.ts';
import { createRandom, pick } from '../../server/seeded-random.ts';

export const SAMPLE_IMAGE_COUNT = 12;
export const SAMPLE_IMAGE_DIR = 'sample/images';
export const SAMPLE_AVATAR_DIR = 'sample/avatars';

const PALETTES = [
  ['#f4efe6', '#1f3a5f', '#e07a5f', '#81b29a'],
  ['#eef2f7', '#2b2d42', '#ef233c', '#8d99ae'],
  ['#fdf6ec', '#3d405b', '#f2cc8f', '#e07a5f'],
  ['#edf6f9', '#006d77', '#83c5be', '#e29578'],
  ['#f7f3ff', '#3c096c', '#9d4edd', '#ffd166'],
  ['#f1f5f2', '#1b4332', '#52b788', '#f4a261'],
] as const;

/** Public URL of sample image n (1-based). */
export function sampleImageUrl(n: number): string {
  return `/${SAMPLE_IMAGE_DIR}/design-${String(n).padStart(2, '0')}.webp`;
}

/** Public URL of an author's generated avatar. */
export function sampleAvatarUrl(handle: string): string {
  return `/${SAMPLE_AVATAR_DIR}/${handle.replace(/[^a-z0-9_-]/gi, '-')}.svg`;
}

/** An abstract UI composition: a window with cards, text lines and a chart, in one palette. */
function compositionSvg(n: number): string {
  const random = createRandom(1000 + n);
  const [bg, ink, accent, soft] = PALETTES[n % PALETTES.length] ?? PALETTES[0];
  const { width, height } = CARD_IMAGE_SIZE;
  const shapes: string[] = [
    `<rect width="${width}" height="${height}" fill="${bg}"/>`,
    `<rect x="40" y="36" width="560" height="328" rx="18" fill="#ffffff" opacity="0.92"/>`,
    `<rect x="40" y="36" width="560" height="44" rx="18" fill="${ink}"/>`,
    `<rect x="40" y="62" width="560" height="18" fill="${ink}"/>`,
  ];
  for (let dot = 0; dot < 3; dot++) shapes.push(`<circle cx="${66 + dot * 20}" cy="58" r="6" fill="${bg}"/>`);
  const columns = 2 + Math.floor(random() * 2);
  const cardWidth = (520 - (columns - 1) * 16) / columns;
  for (let c = 0; c < columns; c++) {
    const x = 60 + c * (cardWidth + 16);
    const tall = 120 + Math.floor(random() * 80);
    shapes.push(
      `<rect x="${x}" y="100" width="${cardWidth}" height="${tall}" rx="12" fill="${c === 0 ? accent : soft}" opacity="0.85"/>`,
    );
    for (let line = 0; line < 3; line++) {
      const w = cardWidth * (0.45 + random() * 0.45);
      shapes.push(
        `<rect x="${x}" y="${100 + tall + 14 + line * 16}" width="${w}" height="8" rx="4" fill="${ink}" opacity="${0.7 - line * 0.18}"/>`,
      );
    }
  }
  const bars = 6 + Math.floor(random() * 4);
  for (let b = 0; b < bars; b++) {
    const h = 20 + Math.floor(random() * 60);
    shapes.push(
      `<rect x="${380 + b * 22}" y="${340 - h}" width="14" height="${h}" rx="3" fill="${pick(random, [accent, soft, ink])}"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join('')}</svg>`;
}

/** A round avatar with the author's initials on a tinted background. */
function avatarSvg(name: string, index: number): string {
  const palette = PALETTES[index % PALETTES.length] ?? PALETTES[0];
  const initials = name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40">` +
    `<circle cx="20" cy="20" r="20" fill="${palette[1]}"/>` +
    `<text x="20" y="25" text-anchor="middle" font-family="system-ui,sans-serif" font-size="14" font-weight="600" fill="${palette[0]}">${initials}</text></svg>\n`
  );
}

/** Writes the sample images (WebP, small) and avatars (SVG) under the public folder. */
export async function writeSampleImages(publicDir: string): Promise<string[]> {
  const written: string[] = [];
  await mkdir(path.join(publicDir, SAMPLE_IMAGE_DIR), { recursive: true });
  await mkdir(path.join(publicDir, SAMPLE_AVATAR_DIR), { recursive: true });
  for (let n = 1; n <= SAMPLE_IMAGE_COUNT; n++) {
    const file = path.join(publicDir, sampleImageUrl(n));
    await sharp(Buffer.from(compositionSvg(n)))
      .webp({ quality: 70, effort: 6 })
      .toFile(file);
    written.push(file);
  }
  for (const [index, author] of SAMPLE_AUTHORS.entries()) {
    const file = path.join(publicDir, sampleAvatarUrl(author.handle));
    await writeFile(file, avatarSvg(author.name, index));
    written.push(file);
  }
  return written;
}
