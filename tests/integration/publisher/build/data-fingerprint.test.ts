import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { siteState, staleReason } from '../../../../server/publisher/build/build-site.ts';
import { TEST_SITE } from '../../../site-under-test.ts';

async function write(dir: string, name: string, body: string) {
  await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
  await writeFile(path.join(dir, name), body);
}

// Decision 035: the build reads the heads of the lists, so only they decide whether it is stale: a
// change deep in a large catalogue (or in its whole files) always comes with a new manifest version.
test('with pages, the heads and the manifest make the site stale; the whole files are not read', async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'ct-fingerprint-'));
  const options = { ...TEST_SITE, siteDir: path.join(work, 'site'), catalogueDir: path.join(work, 'data') };
  const manifest = { generatedAt: '2026-11-25T00:00:00.000Z', nextUpdate: '2026-11-25T01:00:00.000Z' };
  await write(options.catalogueDir, 'manifest.json', JSON.stringify({ ...manifest, version: 'one' }));
  await write(options.catalogueDir, 'pages/all/1.json', '{"page":1}');
  await write(options.catalogueDir, 'pages/all/40.json', '{"page":40}');
  await write(options.catalogueDir, 'pages/topics/color/1.json', '{"page":1}');
  await write(options.catalogueDir, 'threads-all.json', '[]');
  const { fingerprint, code } = await siteState(options);
  await write(options.siteDir, '.build-stamp.json', JSON.stringify({ fingerprint, code }));
  expect(await staleReason(options)).toBeNull();

  // Not read by the build: neither a deep page nor the whole file, nor the manifest's dates.
  await write(options.catalogueDir, 'pages/all/40.json', '{"page":40,"changed":true}');
  await write(options.catalogueDir, 'threads-all.json', '[{}]');
  await write(
    options.catalogueDir,
    'manifest.json',
    JSON.stringify({
      generatedAt: '2026-11-26T00:00:00.000Z',
      nextUpdate: '2026-11-26T01:00:00.000Z',
      version: 'one',
    }),
  );
  expect(await staleReason(options)).toBeNull();

  for (const [name, body] of [
    ['pages/all/1.json', '{"page":1,"changed":true}'],
    ['pages/topics/color/1.json', '{"page":1,"changed":true}'],
    ['manifest.json', JSON.stringify({ ...manifest, version: 'two' })],
  ] as const) {
    await write(options.catalogueDir, name, body);
    // The code is the same: the data's pages are rendered again, when a renderer is there (none here).
    expect(await siteState(options), name).toMatchObject({ reason: 'its data changed', renderOnly: false });
    const { fingerprint: now } = await siteState(options);
    await write(options.siteDir, '.build-stamp.json', JSON.stringify({ fingerprint: now, code }));
  }
});
