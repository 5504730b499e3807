import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { foldName } from '../../contract/name-fold.ts';
import type { ProfileStatus } from '../../contract/profile.ts';
import type { Database } from '../db/client.ts';
import { foldedName } from '../db/name-fold.ts';
import { profiles, users } from '../db/schema.ts';

export type Profile = typeof profiles.$inferSelect;
export interface ProfileWithUser {
  profile: Profile;
  user: typeof users.$inferSelect;
}

/** Invite requests and member profiles. */
export function createProfilesRepository(db: Database) {
  return {
    async findByUser(userId: string, tx: Database = db): Promise<Profile | null> {
      const [row] = await tx.select().from(profiles).where(eq(profiles.userId, userId));
      return row ?? null;
    },

    /**
     * Creates a pending request once; asking again changes nothing (the existing profile is
     * returned). The display username starts as the Threads username when that is free to take.
     */
    async requestInvite(userId: string, displayUsername: string | null, tx: Database = db): Promise<Profile> {
      const inserted = await tx
        .insert(profiles)
        .values({ userId, status: 'pending', displayUsername })
        // Only "this user already asked" is not an error; a display-name clash must surface.
        .onConflictDoNothing({ target: profiles.userId })
        .returning();
      if (inserted[0]) return inserted[0];
      const existing = await this.findByUser(userId, tx);
      if (!existing) throw new Error('invite request vanished');
      return existing;
    },

    /**
     * The display usernames of other users that fold like `name` (decision 065): the same name in
     * another case, or a lookalike. At most one, as the folded unique index holds.
     */
    async namesLike(name: string, exceptUserId: string | null, tx: Database = db): Promise<string[]> {
      const rows = await tx
        .select({ userId: profiles.userId, name: profiles.displayUsername })
        .from(profiles)
        .where(sql`${foldedName(profiles.displayUsername)} = ${foldName(name)}`);
      return rows.flatMap((row) => (row.userId !== exceptUserId && row.name !== null ? [row.name] : []));
    },

    /** Updates an approved profile; null when the user has no approved profile. */
    async updateApproved(
      userId: string,
      displayUsername: string,
      bio: string,
      tx: Database = db,
    ): Promise<Profile | null> {
      const [row] = await tx
        .update(profiles)
        .set({ displayUsername, bio })
        .where(and(eq(profiles.userId, userId), eq(profiles.status, 'approved')))
        .returning();
      return row ?? null;
    },

    /**
     * Decides a pending request. Conditional on 'pending', so of two simultaneous decisions exactly
     * one changes the row (PostgreSQL re-checks the WHERE after waiting); the other gets null.
     */
    async decide(
      userId: string,
      status: Exclude<ProfileStatus, 'pending'>,
      tx: Database = db,
    ): Promise<Profile | null> {
      const [row] = await tx
        .update(profiles)
        .set({ status, decidedAt: sql`now()` })
        .where(and(eq(profiles.userId, userId), eq(profiles.status, 'pending')))
        .returning();
      return row ?? null;
    },

    /** Pending requests, oldest first, with their users. */
    async listPending(tx: Database = db): Promise<ProfileWithUser[]> {
      return tx
        .select({ profile: profiles, user: users })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .where(eq(profiles.status, 'pending'))
        .orderBy(asc(profiles.requestedAt));
    },

    /** Every approved profile with a display username, in name order (the site pre-renders them). */
    async listApproved(tx: Database = db): Promise<ProfileWithUser[]> {
      return tx
        .select({ profile: profiles, user: users })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .where(and(eq(profiles.status, 'approved'), isNotNull(profiles.displayUsername)))
        .orderBy(sql`lower(${profiles.displayUsername})`);
    },

    /** An approved profile by display username, without regard to case. */
    async findApprovedByName(name: string, tx: Database = db): Promise<ProfileWithUser | null> {
      const [row] = await tx
        .select({ profile: profiles, user: users })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.userId))
        .where(
          and(sql`lower(${profiles.displayUsername}) = lower(${name})`, eq(profiles.status, 'approved')),
        );
      return row ?? null;
    },
  };
}
export type ProfilesRepository = ReturnType<typeof createProfilesRepository>;
