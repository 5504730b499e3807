import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { escapeAttributeBrackets } from '../../../http/html-tags.ts';
import { filesUnder } from '../../export/files-under.ts';
import { SITE_DATA_DIR } from './site-pages.ts';

/**
 * Writes `<` and `>` inside the attribute values of every built page (outside `data/`) as entities.
 * Astro escapes only `&` and `"` there, so a bio in `<meta name="description">` or an island's props
 * could read as markup to a tool that scans the page; a browser reads the same value either way.
 * Returns how many pages changed.
 */
export async function escapePageAttributes(siteDir: string): Promise<number> {
  const pages = (await filesUnder(siteDir, '', (folder) => folder === SITE_DATA_DIR)).filter((file) =>
    file.endsWith('.html'),
  );
  let changed = 0;
  for (const page of pages) {
    const file = path.join(siteDir, page);
    const html = await readFile(file, 'utf8');
    const escaped = escapeAttributeBrackets(html);
    if (escaped === html) continue;
    await writeFile(file, escaped);
    changed += 1;
  }
  return changed;
}
