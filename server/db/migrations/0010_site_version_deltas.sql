CREATE TABLE "site_version_files" (
	"path" text NOT NULL,
	"hash" text NOT NULL,
	"from_version" bigint NOT NULL,
	"until_version" bigint,
	CONSTRAINT "site_version_files_path_from_version_pk" PRIMARY KEY("path","from_version")
);
--> statement-breakpoint
ALTER TABLE "site_versions" ADD COLUMN "file_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_versions" ADD COLUMN "changed_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "site_version_files_from" ON "site_version_files" USING btree ("from_version");--> statement-breakpoint
CREATE INDEX "site_version_files_until" ON "site_version_files" USING btree ("until_version");--> statement-breakpoint
CREATE INDEX "site_version_files_hash" ON "site_version_files" USING btree ("hash");--> statement-breakpoint
CREATE UNIQUE INDEX "site_version_files_live" ON "site_version_files" USING btree ("path") WHERE "site_version_files"."until_version" is null;--> statement-breakpoint
-- Decision 044: the newest version's whole file list becomes its live rows, and the versions before
-- it (whole lists too) go with the objects only they named; instances catch up from the newest.
INSERT INTO "site_version_files" ("path", "hash", "from_version")
  SELECT "files"."key", "files"."value", "v"."id"
  FROM "site_versions" "v", jsonb_each_text("v"."files") "files"
  WHERE "v"."id" = (SELECT max("id") FROM "site_versions");--> statement-breakpoint
UPDATE "site_versions" SET "file_count" = (SELECT count(*) FROM jsonb_object_keys("files")),
  "changed_count" = (SELECT count(*) FROM jsonb_object_keys("files"));--> statement-breakpoint
DELETE FROM "site_versions" WHERE "id" < (SELECT max("id") FROM "site_versions");--> statement-breakpoint
DELETE FROM "site_objects" WHERE NOT EXISTS (
  SELECT 1 FROM "site_version_files" "f" WHERE "f"."hash" = "site_objects"."hash"
);--> statement-breakpoint
ALTER TABLE "site_versions" ALTER COLUMN "file_count" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "site_versions" ALTER COLUMN "changed_count" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "site_versions" DROP COLUMN "files";