import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PostDisplay } from '../../../contract/threads-embed.ts';
import type { Database } from '../../db/client.ts';
import { collectionsFor } from '../../services/profiles/profile-collections.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import { toPublicProfile } from '../../views/profile-views.ts';
import { writeIfChanged } from './atomic-file.ts';

/**
 * Writes every approved member's public profile to `file` for the site build, which pre-renders
 * `/{username}` from it (DESIGN section 5), each with its gems and own threads as cards. Returns how
 * many, and whether the file changed.
 */
export async function exportPublishedProfiles(
  db: Database,
  file: string,
  display: PostDisplay = 'card',
): Promise<{ count: number; changed: boolean }> {
  const approved = await createProfilesRepository(db).listApproved();
  // Bounded per profile (PROFILE_CARDS_MAX cards per list) and four queries per 500 members.
  const collections = await collectionsFor(
    db,
    approved.map(({ profile }) => profile.userId),
    display,
  );
  const profiles = approved.map((row) => {
    const own = collections.get(row.profile.userId);
    if (!own) throw new Error('collections vanished');
    return toPublicProfile(row, own);
  });
  await mkdir(path.dirname(file), { recursive: true });
  const changed = await writeIfChanged(file, `${JSON.stringify(profiles, null, 2)}\n`);
  return { count: profiles.length, changed };
}
