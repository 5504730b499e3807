import type { APIRoute } from 'astro';

/** robots.txt: everything public may be crawled except the API and the signed-in screens. */
export const GET: APIRoute = ({ site }) => {
  const body = [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /auth/',
    'Disallow: /callback',
    'Disallow: /dashboard',
    'Disallow: /profile',
    'Disallow: /submit',
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).href}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
