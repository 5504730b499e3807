import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
    // A page only this version has (the catalogue shrank in the next).
    ...(name === 'one' ? { 'data/pages/all/9.json': '{"page":9}' } : {}),
  };
  for (const [file, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), body);
  }
  return { siteDir: path.join(root, 'site'), catalogueDir: path.join(root, 'data') };
}

const text = (file: { body: Buffer } | undefined) => file?.body.toString() ?? null;

/** A /data file as the served catalogue answers it (identity encoding, small files in memory). */
async function data(served: ServedSite, pathname: string): Promise<string | null> {
  const answer = await served.catalogue.answer(pathname, {
    method: 'GET',
    acceptEncoding: undefined,
    ifNoneMatch: undefined,
  });
  return Buffer.isBuffer(answer?.body) ? answer.body.toString() : null;
}

// Decision 036: instances switch at one moment; around it, content-hashed files of both versions answer.
test('a prepared version answers its hashed files at once and everything else once activated', async () => {
  const served = await ServedSite.load({ ...(await version('one')), secure: false, previousGraceMs: 200 });
  const prepared = await served.prepare(await version('two'));
  expect(text(served.find('/'))).toBe('<p>one</p>');
  expect(await data(served, '/data/manifest.json')).toBe('{"version":"one"}');
  expect(await data(served, '/data/pages/all/9.json')).toBe('{"page":9}');
  // What an instance that switched a moment earlier may send a visitor for:
  expect(await data(served, '/data/search/two.json')).toBe('{"version":"two"}');
  expect(text(served.find('/_astro/app-two.js'))).toBe('two');

  served.activate(prepared);
  expect(text(served.find('/'))).toBe('<p>two</p>');
  expect(await data(served, '/data/manifest.json')).toBe('{"version":"two"}');
  // What a page loaded just before the switch still asks for:
  expect(await data(served, '/data/search/one.json')).toBe('{"version":"one"}');
  expect(text(served.find('/_astro/app-one.js'))).toBe('one');
  // A page file only the old version had: still there for the pages that read the old version just
  // before the switch, gone after the grace (a file removed on purpose must not stay served).
  expect(await data(served, '/data/pages/all/9.json')).toBe('{"page":9}');
  await sleep(250);
  expect(await data(served, '/data/pages/all/9.json')).toBeNull();
  expect(await data(served, '/data/search/one.json')).toBe('{"version":"one"}');
});
