-- Lookalike display names (decision 065). Names taken before this rule may already fold alike
-- (ori_ux and oriux): the unique index below could not be built over them. Of each such group the
-- approved profile that was decided first keeps its name; the others lose theirs (NULL, as an invite
-- whose first name was not free) and choose another in their profile form.
UPDATE "profiles" SET "display_username" = NULL
WHERE "user_id" IN (
  SELECT "user_id" FROM (
    SELECT "user_id", row_number() OVER (
      PARTITION BY translate(lower("display_username"), '01l._', 'oii')
      ORDER BY ("status" = 'approved') DESC, "decided_at" ASC NULLS LAST, "requested_at" ASC, "user_id" ASC
    ) AS "place"
    FROM "profiles"
    WHERE "display_username" IS NOT NULL
  ) AS "ranked"
  WHERE "place" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_display_username_folded" ON "profiles" USING btree (translate(lower("display_username"), '01l._', 'oii'));--> statement-breakpoint
CREATE INDEX "users_threads_username_folded" ON "users" USING btree (translate(lower("threads_username"), '01l._', 'oii'));