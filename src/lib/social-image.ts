// The picture link previews show for the site's pages (OpenGraph, Twitter cards). No sharp here:
// every page's head reads these constants, and only the picture's own endpoint renders it.
import { SITE } from '../../contract/site.ts';
import { SITE_SOCIAL_IMAGE_PATH, SOCIAL_IMAGE_SIZE } from '../../contract/social-image.ts';

/** The site's picture: its size and address. Threads, topics and profiles have their own (decision 048). */
export const SOCIAL_IMAGE = { ...SOCIAL_IMAGE_SIZE, path: SITE_SOCIAL_IMAGE_PATH } as const;

/** What the picture shows, in words, for those who cannot see it (og:image:alt). */
export const SOCIAL_IMAGE_ALT = `${SITE.title}: design and UI posts from Threads, curated by people.`;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The picture as SVG: the name large on the site's paper colour, a row of cards hinting at the grid. */
export function socialImageSvg(): string {
  const { width, height } = SOCIAL_IMAGE;
  const cards = [0, 1, 2, 3]
    .map((i) => {
      const x = 80 + i * 270;
      const fill = ['#1f3a5f', '#e07a5f', '#81b29a', '#f2cc8f'][i] ?? '#1f3a5f';
      return `<rect x="${x}" y="400" width="240" height="150" rx="18" fill="${fill}"/>
        <rect x="${x + 24}" y="440" width="${120 + i * 20}" height="14" rx="7" fill="#ffffff" opacity="0.85"/>
        <rect x="${x + 24}" y="470" width="${90 + i * 10}" height="14" rx="7" fill="#ffffff" opacity="0.6"/>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <rect width="${width}" height="${height}" fill="#f6f5f1"/>
  <text x="80" y="190" font-family="Inter, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif" font-size="96" font-weight="600" fill="#1b1a1f">${escapeXml(SITE.title)}</text>
  <text x="82" y="270" font-family="Inter, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif" font-size="38" fill="#55535c">Design and UI posts from Threads, curated by people</text>
  ${cards}
</svg>`;
}
