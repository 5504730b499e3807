import { foldName } from '../../../contract/name-fold.ts';
import { USERNAME_MESSAGES } from '../../../contract/profile.ts';
import type { Database } from '../../db/client.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import { createUsersRepository, type User } from '../../repositories/users.ts';

/**
 * Why `user` may not take `name` as their display username, beyond the contract's rules: another
 * member holds it or a lookalike of it, or it is or looks like another person's Threads handle
 * (decisions 028 and 065). Null when the name is free. Two members choosing lookalikes at the same
 * moment both pass here; the folded unique index then refuses the second write.
 */
export function createNameClashCheck(db: Database) {
  const profiles = createProfilesRepository(db);
  const users = createUsersRepository(db);
  return async function nameClash(name: string, user: User): Promise<string | null> {
    // The exact refusals keep their own words; a lookalike says only that it looks like one.
    const same = (other: string) => other.toLowerCase() === name.toLowerCase();
    const held = await profiles.namesLike(name, user.id);
    if (held.some(same)) return USERNAME_MESSAGES.taken;
    if (held.length > 0) return USERNAME_MESSAGES.takenLookalike;
    const handles = await users.handlesLike(name, user.id);
    if (handles.some(same)) return USERNAME_MESSAGES.threadsHandle;
    // A lookalike of one's own handle is one's own (ori.ux may be ori_ux), even when a third
    // person's handle folds alike too: Threads lets both exist, and each may take its own exactly.
    if (handles.length > 0 && foldName(name) !== foldName(user.threadsUsername))
      return USERNAME_MESSAGES.threadsHandleLookalike;
    return null;
  };
}
