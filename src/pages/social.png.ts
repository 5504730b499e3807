import type { APIRoute } from 'astro';
import sharp from 'sharp';
import { socialImageSvg } from '../lib/social-image.ts';

// Built once per code change (it shows no data): the link preview picture of every page. sharp
// renders the SVG with the fonts the build machine has.
export const prerender = true;

export const GET: APIRoute = async () => {
  const png = await sharp(Buffer.from(socialImageSvg())).png({ compressionLevel: 9 }).toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
