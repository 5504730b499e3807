import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { createProfilesRepository, toPublicProfile } from '../repositories/profiles.ts';
import { writeIfChanged } from './atomic-file.ts';

/**
 * Writes every approved member's public profile to `file` for the site build, which pre-renders
 * `/{username}` from it (DESIGN section 5). Returns how many, and whether the file changed.
 */
export async function exportPublishedProfiles(
  db: Database,
  file: string,
): Promise<{ count: number; changed: boolean }> {
  const profiles = (await createProfilesRepository(db).listApproved()).map(toPublicProfile);
  await mkdir(path.dirname(file), { recursive: true });
  const changed = await writeIfChanged(file, `${JSON.stringify(profiles, null, 2)}\n`);
  return { count: profiles.length, changed };
}
