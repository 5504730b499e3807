-- Decision 063: a submitted link's author was the handle typed into it. Every such post that
-- is not the member's own loses that handle, its display name and the link that carried it (a
-- search result that found it since did not correct it); the next search result naming it does.
UPDATE "threads"
SET "username" = NULL,
    "author_name" = NULL,
    "permalink" = 'https://www.threads.com/t/' || "shortcode"
WHERE "source" = 'manual_submission' AND "owner_user_id" IS NULL;
