// Child process for the site lock tests: a live builder of SITE_DIR. Holding its lock, it stages a
// build and moves one beside the folder, says so, and when told (its stdin ends) removes them as a
// build's owner does, then lets go of the lock.
import { mkdir, rm } from 'node:fs/promises';
import { withSiteLock } from '../../../server/publisher/build/site-lock.ts';
import { stagingDirFor } from '../../../server/publisher/build/staging.ts';

const [siteDir, suffix] = process.argv.slice(2);
if (!siteDir || !suffix) throw new Error('usage: hold-site-lock.ts SITE_DIR SUFFIX');
await withSiteLock(siteDir, async () => {
  const folders = [stagingDirFor(siteDir, suffix), `${siteDir}.building-${suffix}`];
  for (const folder of folders) await mkdir(folder, { recursive: true });
  console.log('holding');
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});
console.log('released');
