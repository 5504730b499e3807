/**
 * The JavaScript each built page makes the browser load: its module scripts and Astro islands'
 * component and renderer URLs, followed through their static imports (dynamic `import()` is not
 * followed: it loads later, if ever). Sizes raw and with brotli, as the server sends them.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { PageScripts } from './results.ts';

/** Attribute values that name a script in the HTML: `<script src>`, modulepreload links, island URLs. */
const HTML_SCRIPT_URLS = [
  /<script\b[^>]*\bsrc="([^"]+)"/g,
  /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g,
  /<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g,
  /<astro-island\b[^>]*\bcomponent-url="([^"]+)"/g,
  /<astro-island\b[^>]*\brenderer-url="([^"]+)"/g,
];
const INLINE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
/** `import x from "./a.js"`, `import"./a.js"`, `export{a}from"./a.js"`; not `import("./a.js")`. */
const STATIC_IMPORT = /(?:^|[^\w$.-])(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?["']([^"']+)["']/g;

const decodeEntities = (value: string) => value.replace(/&amp;/g, '&').replace(/&#x2F;/gi, '/');

function matches(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => decodeEntities(match[1] ?? ''));
}

/** Static import specifiers of a script's source. */
export function staticImports(source: string): string[] {
  return matches(source, STATIC_IMPORT);
}

/** The script URLs an HTML page names, including what its inline scripts import statically. */
export function scriptUrlsOfHtml(html: string): string[] {
  const urls = HTML_SCRIPT_URLS.flatMap((pattern) => matches(html, pattern));
  for (const inline of matches(html, INLINE_SCRIPT)) urls.push(...staticImports(inline));
  return [...new Set(urls)];
}

/** A same-origin script URL as a path from the site root, or null (another origin, data:, bare name). */
export function resolveScript(specifier: string, fromUrlPath: string): string | null {
  if (specifier.startsWith('/') && !specifier.startsWith('//'))
    return path.posix.normalize(specifier.split(/[?#]/)[0] ?? '');
  if (specifier.startsWith('./') || specifier.startsWith('../'))
    return path.posix.normalize(
      path.posix.join(path.posix.dirname(fromUrlPath), specifier.split(/[?#]/)[0] ?? ''),
    );
  return null;
}

/** Every script a page loads: the HTML's scripts and what they import statically, transitively. */
async function scriptsOfPage(dist: string, pageUrlPath: string, html: string): Promise<string[]> {
  const seen = new Set<string>();
  const queue = scriptUrlsOfHtml(html)
    .map((url) => resolveScript(url, pageUrlPath))
    .filter((url): url is string => url !== null);
  while (queue.length > 0) {
    const url = queue.shift() ?? '';
    if (seen.has(url)) continue;
    seen.add(url);
    const source = await readFile(path.join(dist, decodeURIComponent(url)), 'utf8').catch(() => {
      throw new Error(`${pageUrlPath} loads ${url}, which is not in ${dist}`);
    });
    for (const specifier of staticImports(source)) {
      const next = resolveScript(specifier, url);
      if (next && !seen.has(next)) queue.push(next);
    }
  }
  return [...seen].sort();
}

/** The URL path of a built HTML file: `index.html` is its folder's. */
export function pageUrlPath(relativeFile: string): string {
  const posix = relativeFile.split(path.sep).join('/');
  if (posix === 'index.html') return '/';
  return `/${posix.endsWith('/index.html') ? posix.slice(0, -'index.html'.length) : posix}`;
}

/** Raw and brotli (quality 11, as precompressed files are) bytes of every script each page loads. */
export async function jsBytesPerPage(dist: string): Promise<PageScripts[]> {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  const htmlFiles = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.relative(dist, path.join(entry.parentPath, entry.name)))
    .sort();
  const sizes = new Map<string, { raw: number; brotli: number }>();
  const sizeOf = async (url: string) => {
    const known = sizes.get(url);
    if (known) return known;
    const body = await readFile(path.join(dist, decodeURIComponent(url)));
    const brotli = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    const size = { raw: body.length, brotli };
    sizes.set(url, size);
    return size;
  };
  const pages: PageScripts[] = [];
  for (const file of htmlFiles) {
    const page = pageUrlPath(file);
    const scripts = await scriptsOfPage(dist, page, await readFile(path.join(dist, file), 'utf8'));
    let [rawBytes, brotliBytes] = [0, 0];
    for (const script of scripts) {
      const size = await sizeOf(script);
      rawBytes += size.raw;
      brotliBytes += size.brotli;
    }
    pages.push({ page, scripts: scripts.length, rawBytes, brotliBytes });
  }
  return pages;
}
