import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { ThreadCard } from '../../../../../contract/thread-card.ts';
import { PROJECT_ROOT } from '../../../../../server/publisher/build/build-site.ts';
import { NGINX_PATH, nginxArgs, writeNginxConfig } from '../../../../nginx/nginx-runner.ts';

// `npm run build` on a fresh clone of the committed repository, with no configuration but SITE_DIR:
// no server has ever run there, so the build must export the sample itself.

const work = await mkdtemp(path.join(tmpdir(), 'ct-fresh-clone-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** The environment without any of the product's settings (the test runner's own may be set). */
function bareEnv(): NodeJS.ProcessEnv {
  const setting =
    /^(SITE_DIR|DATA_DIR|CATALOGUE_|SAMPLE_CATALOGUE_DIR|PUBLIC_URL|PORT|HOST|CONTACT_EMAIL|PROFILES_FILE)/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !setting.test(name)));
}

test(
  'npm run build on a fresh clone builds the sample with every host file',
  { timeout: 240_000 },
  async () => {
    const clone = path.join(work, 'repo');
    const git = spawnSync('git', ['clone', '--quiet', PROJECT_ROOT, clone], { encoding: 'utf8' });
    expect(git.status, git.stderr).toBe(0);
    // The dependencies, as `npm install` would leave them. The site goes inside the clone: a symlinked
    // node_modules resolves to the original tree, which a build folder outside the clone cannot see.
    await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    const siteDir = path.join(clone, 'site-out');
    const build = spawnSync('npm', ['run', 'build'], {
      cwd: clone,
      env: { ...bareEnv(), SITE_DIR: siteDir },
      encoding: 'utf8',
      timeout: 200_000,
    });
    expect(build.status, `${build.stdout}\n${build.stderr}`.slice(-3000)).toBe(0);
    expect(build.stdout).toContain('exported the sample (48 threads)');

    const sample = JSON.parse(
      await readFile(path.join(clone, 'data/threads-all.json'), 'utf8'),
    ) as ThreadCard[];
    const home = await readFile(path.join(siteDir, 'index.html'), 'utf8');
    expect(home).toContain('article');
    expect(home).toContain(sample[0]?.author ?? 'no sample');
    const manifest = JSON.parse(await readFile(path.join(siteDir, 'data/manifest.json'), 'utf8')) as {
      counts: { all: number };
    };
    expect(manifest.counts.all).toBe(sample.length);
    expect(existsSync(path.join(siteDir, 'data/pages/all/1.json'))).toBe(true);
    const headers = await readFile(path.join(siteDir, '_headers'), 'utf8');
    expect(headers).toMatch(/^\/\*$/m);
    expect(headers).toMatch(/^\/privacy\/$/m);
    for (const file of ['index.html', 'data/manifest.json', 'favicon.svg']) {
      expect(existsSync(path.join(siteDir, `${file}.br`)), `${file}.br`).toBe(true);
      expect(existsSync(path.join(siteDir, `${file}.gz`)), `${file}.gz`).toBe(true);
    }

    // The nginx block beside the site: nginx accepts it inside a minimal http block.
    const serverBlock = `${siteDir}.nginx.conf`;
    expect(await readFile(serverBlock, 'utf8')).toContain(`root "${siteDir}";`);
    const prefix = path.join(work, 'nginx');
    const check = spawnSync(
      NGINX_PATH,
      nginxArgs(prefix, await writeNginxConfig(prefix, serverBlock), ['-t']),
      {
        encoding: 'utf8',
      },
    );
    expect(check.status, check.stderr).toBe(0);
  },
);
