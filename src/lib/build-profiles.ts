// Build-time only: reads the approved profiles the server exported (server/publisher/export/export-profiles.ts).
import { readFile } from 'node:fs/promises';
import { PublishedProfilesSchema } from '../../contract/profile.ts';
import type { PublicProfile } from '../../contract/profile-rules.ts';

/** The profiles to pre-render at /{username}; none when the server has not exported any. */
export async function readPublishedProfiles(): Promise<PublicProfile[]> {
  const file = process.env.PROFILES_FILE?.trim();
  if (!file) return [];
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = PublishedProfilesSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`${file} is not a list of profiles: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
