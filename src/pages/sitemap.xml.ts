import type { APIRoute } from 'astro';
import { PUBLIC_PAGES } from '../lib/public-pages.ts';

/** sitemap.xml of the indexable static pages, with absolute URLs on the configured site. */
export const GET: APIRoute = ({ site }) => {
  const urls = PUBLIC_PAGES.map((page) => `  <url><loc>${new URL(page, site).href}</loc></url>`).join('\n');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
