// Build-time only: reads the approved profiles the server exported (server/publisher/export/export-profiles.ts).
import { PublishedProfilesSchema } from '../../contract/profile.ts';
import type { PublicProfile } from '../../contract/profile-rules.ts';
import { readExportedList } from './build-data-file.ts';

/** The profiles to pre-render at /{username}; none when the server has not exported any. */
export function readPublishedProfiles(): Promise<PublicProfile[]> {
  return readExportedList('PROFILES_FILE', PublishedProfilesSchema, 'profiles');
}
