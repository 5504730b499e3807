import { cp, link, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { expect, test } from 'vitest';
import {
  buildSite,
  renderSite,
  siteState,
  staleReason,
  type SiteBuildOptions,
} from '../../../../server/publisher/build/build-site.ts';
import { runningRenderers } from '../../../../server/publisher/build/render/page-renderer.ts';
import { readStamp } from '../../../../server/publisher/build/site-fingerprint.ts';
import { PROJECT_ROOT, stagingFolderFor } from '../../../../server/publisher/build/staging.ts';
import type { PublishedDigest } from '../../../../contract/digest-page.ts';
import { topicSlug } from '../../../../contract/topics.ts';
import { TEST_SITE } from '../../../site-under-test.ts';
import { NO_COLLECTIONS } from '../../../unit/helpers/profile-collections.ts';

/** The files each page marked `prerender = false` writes, as patterns: `[slug]` is any one segment. */
async function onDemandRoutes(): Promise<RegExp[]> {
  const pagesDir = path.join(PROJECT_ROOT, 'src', 'pages');
  const routes: RegExp[] = [];
  for (const file of await readdir(pagesDir, { recursive: true })) {
    if (!/\.(astro|ts)$/.test(file)) continue;
    if (!(await readFile(path.join(pagesDir, file), 'utf8')).includes('export const prerender = false'))
      continue;
    const route = file
      .replace(/\.(astro|ts)$/, '')
      .replace(/(^|\/)index$/, '')
      .split('/')
      .map((segment) => (/^\[.+\]$/.test(segment) ? '[^/]+' : segment.replaceAll('.', '\\.')))
      .join('/');
    const written = file.endsWith('.ts') ? route : route === '' ? 'index\\.html' : `${route}/index\\.html`;
    routes.push(new RegExp(`^${written}$`));
  }
  return routes;
}

// One real Astro build into a temporary folder outside the project (SITE_DIR anywhere: the build is
// staged inside the project, then moved), on a private copy of the catalogue. Real builds and
// renders: 30 s on a loaded machine, more beside another file's build (ci24 ran out of the default 30 s).
test(
  'the stale check notices edits and deletions; a failed build keeps the last good site',
  { timeout: 180_000 },
  async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'ct-build-'));
    const options: SiteBuildOptions = {
      ...TEST_SITE,
      // Its parent does not exist yet.
      siteDir: path.join(work, 'hosted', 'site'),
      catalogueDir: path.join(work, 'catalogue'),
      profilesFile: path.join(work, 'profiles.json'),
      digestsFile: path.join(work, 'digests.json'),
    };
    const profile = { username: 'gridwatcher', threads_username: 'gridwatcher', bio: 'Grids, mostly.' };
    await writeFile(options.profilesFile ?? '', JSON.stringify([{ ...profile, ...NO_COLLECTIONS }]));
    const [digestCard] = JSON.parse(
      await readFile(path.join(TEST_SITE.catalogueDir, 'threads-all.json'), 'utf8'),
    ) as PublishedDigest['cards'];
    const digest: PublishedDigest = {
      id: '2026-47',
      year: 2026,
      week: 47,
      published_at: '2026-11-24T00:00:00.000Z',
      note: 'A week of <grids> & margins.',
      cards: digestCard ? [digestCard] : [],
    };
    await writeFile(options.digestsFile ?? '', JSON.stringify([digest]));
    expect(path.relative(PROJECT_ROOT, options.siteDir).startsWith('..')).toBe(true);
    /** Beside the site: the site and its nginx block, no staging or retired folder left behind. */
    const besideSite = async () => (await readdir(path.dirname(options.siteDir))).toSorted();
    /** The site's staging folder in the project: after each build only the served site's renderer stays. */
    const staged = async () =>
      (await readdir(stagingFolderFor(options.siteDir)).catch(() => ['removed'])).map((name) =>
        name.replace(/-[0-9a-f]{8}$/, '-<hex>'),
      );
    await cp(TEST_SITE.catalogueDir, options.catalogueDir, { recursive: true });
    expect(await staleReason(options)).toBe('no built site yet');

    // API_BASE_URL comes from the options alone: one in the server's environment is not baked in.
    process.env.API_BASE_URL = 'http://127.0.0.1:4398';
    try {
      await buildSite(options, { capture: true });
    } finally {
      delete process.env.API_BASE_URL;
    }
    expect(await staleReason(options)).toBeNull();
    expect(await besideSite()).toEqual(['site', 'site.nginx.conf']);
    expect(await staged()).toEqual(['renderer-<hex>']);
    // Every page left to the renderer (prerender = false) was rendered: one file at least per route.
    const rendered = (await readStamp(options.siteDir))?.pages ?? [];
    const routes = await onDemandRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const route of routes)
      expect(
        rendered.some((file) => route.test(file)),
        String(route),
      ).toBe(true);
    expect(rendered).toContain('gridwatcher/index.html');
    // The digest's page (decision 057): its note escaped, its thread, its own preview picture.
    const digestPage = await readFile(path.join(options.siteDir, 'digest', '2026-47', 'index.html'), 'utf8');
    expect(digestPage).toContain('Week 47, 2026');
    expect(digestPage).toContain('A week of &lt;grids&gt; &amp; margins.');
    expect(digestPage).toContain(digestCard?.author ?? 'no card');
    expect(digestPage).toContain('/social/digest/2026-47.png');
    expect(digestPage).toContain('/digest/feed.xml');
    await expect(readFile(path.join(options.siteDir, 'digest', 'index.html'), 'utf8')).resolves.toContain(
      'href="/digest/2026-47"',
    );
    await expect(readFile(path.join(options.siteDir, 'sitemap.xml'), 'utf8')).resolves.toContain(
      '/digest/2026-47</loc>',
    );
    const builtHome = await readFile(path.join(options.siteDir, 'index.html'), 'utf8');
    expect(builtHome).toContain('Design threads');
    const built = (await readdir(options.siteDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && /\.(html|js)$/.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name));
    const leaked = [];
    for (const file of built)
      if ((await readFile(file, 'utf8')).includes('127.0.0.1:4398')) leaked.push(file);
    expect(leaked).toEqual([]);

    // A file removed from the inputs makes the site stale, although no remaining file got newer.
    const recent = path.join(options.catalogueDir, 'threads-recent.json');
    const recentBody = await readFile(recent);
    await rm(recent);
    expect(await staleReason(options)).toBe('its data changed');
    // Data is compared by content: the same bytes back (even with an old mtime) match the build...
    await writeFile(recent, recentBody);
    const past = new Date('2020-01-01T00:00:00Z');
    await utimes(recent, past, past);
    expect(await staleReason(options)).toBeNull();
    // ...and one changed byte does not, although the size and the mtime stay the same.
    const changed = Buffer.from(recentBody);
    changed[changed.length - 2] = changed[changed.length - 2] === 0x20 ? 0x0a : 0x20;
    await writeFile(recent, changed);
    await utimes(recent, past, past);
    expect(await staleReason(options)).toBe('its data changed');
    await writeFile(recent, recentBody);

    expect(await staleReason(options)).toBeNull();

    expect(await staleReason({ ...options, contactEmail: 'other@curated-threads.test' })).toBe(
      'its sources or settings changed',
    );
    // Another API origin is another site: its pages call elsewhere and allow it in their CSP.
    expect(await staleReason({ ...options, apiBaseUrl: 'http://127.0.0.1:4399' })).toBe(
      'its sources or settings changed',
    );

    // New data is rendered by the build's renderer into a copy of the site: no build, the same assets.
    const all = path.join(options.catalogueDir, 'threads-all.json');
    const cards = JSON.parse(await readFile(all, 'utf8')) as { content: string; topic_tag: string | null }[];
    const gone = cards[0]?.topic_tag ?? '';
    const edited = cards
      .filter((card) => card.topic_tag !== gone)
      .map((card, index) =>
        index === 0 ? { ...card, content: 'Rendered, not built: a baseline grid' } : card,
      );
    await writeFile(all, JSON.stringify(edited));
    const assets = async () => (await readdir(path.join(options.siteDir, '_astro'))).toSorted();
    const assetsBefore = await assets();
    const goneSlug = topicSlug(gone) ?? '';
    const goneTopic = path.join(options.siteDir, 'topics', goneSlug, 'index.html');
    await expect(readFile(goneTopic, 'utf8')).resolves.toContain(`#${gone}`);
    const state = await siteState(options);
    expect(state).toMatchObject({ reason: 'its data changed', renderOnly: true });
    // The render links the served site's files into its copy: none may be written in place. Links of
    // our own to the served files keep their bytes after the swap; they must be the bytes of before.
    const held = [
      'index.html',
      'index.html.br',
      '_headers',
      '.build-stamp.json',
      `_astro/${assetsBefore[0]}`,
    ];
    const before = new Map<string, Buffer>();
    for (const [index, file] of held.entries()) {
      await link(path.join(options.siteDir, file), path.join(work, `held-${index}`));
      before.set(file, await readFile(path.join(work, `held-${index}`)));
    }
    await renderSite(options, state);
    for (const [index, file] of held.entries())
      expect(await readFile(path.join(work, `held-${index}`)), file).toEqual(before.get(file));
    expect(await staleReason(options)).toBeNull();
    const renderedHome = await readFile(path.join(options.siteDir, 'index.html'), 'utf8');
    expect(renderedHome).toContain('Rendered, not built: a baseline grid');
    // Its compressed copy is of the new page, and the topic with no thread left has no page any more.
    expect(
      await readFile(path.join(options.siteDir, 'index.html.gz')).then((gz) => gunzipSync(gz).toString()),
    ).toBe(renderedHome);
    await expect(readFile(goneTopic)).rejects.toThrow('ENOENT');
    expect(await readFile(path.join(options.siteDir, 'sitemap.xml'), 'utf8')).not.toContain(
      `/topics/${goneSlug}`,
    );
    expect(await assets()).toEqual(assetsBefore);
    expect(await besideSite()).toEqual(['site', 'site.nginx.conf']);
    expect(await staged()).toEqual(['renderer-<hex>']);

    // A build for other code or settings replaces the renderer: the previous one's process stops.
    const mine = (entry: string) => entry.startsWith(stagingFolderFor(options.siteDir));
    const [first] = runningRenderers().filter(mine);
    expect(first).toBeDefined();
    const otherContact = { ...options, contactEmail: 'builds@curated-threads.test' };
    await buildSite(otherContact, { capture: true });
    const [second, ...more] = runningRenderers().filter(mine);
    expect(more).toEqual([]);
    expect(second).not.toBe(first);
    expect(await staged()).toEqual(['renderer-<hex>']);
    expect(await staleReason(otherContact)).toBeNull();

    // A catalogue the build cannot read fails the build; the previous site stays in place.
    await writeFile(path.join(options.catalogueDir, 'threads-all.json'), '{"not": "a list"}');
    const failing = await siteState(otherContact);
    expect(failing.renderOnly).toBe(true);
    const failure = renderSite(otherContact, failing);
    await expect(failure).rejects.toThrow("Rendering the site's pages failed");
    await expect(failure).rejects.toThrow('threads-all.json must hold a list of thread cards');
    // A build renders the same pages: it fails alike, and its renderer goes with it.
    await expect(buildSite(options, { capture: true })).rejects.toThrow(
      'threads-all.json must hold a list of thread cards',
    );
    expect(await readFile(path.join(options.siteDir, 'index.html'), 'utf8')).toBe(
      renderedHome.replaceAll(options.contactEmail ?? '', otherContact.contactEmail),
    );
    expect(await besideSite()).toEqual(['site', 'site.nginx.conf']);
    expect(await staged()).toEqual(['renderer-<hex>']);
    await rm(work, { recursive: true, force: true });
    await rm(stagingFolderFor(options.siteDir), { recursive: true, force: true });
  },
);
