import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { filesUnder } from '../../../server/publisher/export/files-under.ts';
import { TEST_SITE } from '../../site-under-test.ts';

// Astro drops the line break between a word and an element on the next line of a template, so
// "in the\n<a>moderation log</a>" was served as "in themoderation log" (issue 20). Read every page
// of the site under test as served.
test('no built page runs a word into a link or an emphasis', async () => {
  const pages = (await filesUnder(TEST_SITE.siteDir, '')).filter(
    (file) => file.endsWith('.html') && !file.startsWith('data/'),
  );
  expect(pages.length).toBeGreaterThan(10);
  for (const page of pages) {
    const html = await readFile(path.join(TEST_SITE.siteDir, page), 'utf8');
    const body = html.slice(html.indexOf('<body'));
    expect(body.match(/[A-Za-z]<(?:a|strong|em|code|kbd)[\s>]/g) ?? [], page).toEqual([]);
    expect(body.match(/<\/(?:a|strong|em|code|kbd)>[A-Za-z]/g) ?? [], page).toEqual([]);
  }
});
