import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ServedSite } from '../../../../server/publisher/serve/served-site.ts';

async function version(name: string) {
  const root = await mkdtemp(path.join(tmpdir(), `ct-served-${name}-`));
  const files: Record<string, string> = {
    'site/index.html': `<p>${name}</p>`,
    'site/404.html': 'missing',
    [`site/_astro/app-${name}.js`]: name,
    'data/manifest.json': `{"version":"${name}"}`,
    [`data/search/${name}.json`]: `{"version":"${name}"}`,
  };
  for (const [file, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), body);
  }
  return { siteDir: path.join(root, 'site'), catalogueDir: path.join(root, 'data') };
}

const text = (file: { body: Buffer } | undefined) => file?.body.toString() ?? null;

// Decision 036: instances switch at one moment; around it, content-hashed files of both versions answer.
test('a prepared version answers its hashed files at once and everything else once activated', async () => {
  const served = await ServedSite.load({ ...(await version('one')), secure: false });
  const prepared = await served.prepare(await version('two'));
  expect(text(served.find('/'))).toBe('<p>one</p>');
  expect(text(served.find('/data/manifest.json'))).toBe('{"version":"one"}');
  // What an instance that switched a moment earlier may send a visitor for:
  expect(text(served.find('/data/search/two.json'))).toBe('{"version":"two"}');
  expect(text(served.find('/_astro/app-two.js'))).toBe('two');

  served.activate(prepared);
  expect(text(served.find('/'))).toBe('<p>two</p>');
  expect(text(served.find('/data/manifest.json'))).toBe('{"version":"two"}');
  // What a page loaded just before the switch still asks for:
  expect(text(served.find('/data/search/one.json'))).toBe('{"version":"one"}');
  expect(text(served.find('/_astro/app-one.js'))).toBe('one');
  // Only hashed names fall back: a page of the old version is gone.
  expect(served.find('/data/manifest.json.old')).toBeUndefined();
});
