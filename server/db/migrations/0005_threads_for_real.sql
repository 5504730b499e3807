CREATE TABLE "author_opt_outs" (
	"threads_user_id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generated_posts" ADD COLUMN "container_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "search_calls" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "image_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "missing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "status_before_removal" text;--> statement-breakpoint
ALTER TABLE "threads_tokens" ADD COLUMN "scopes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "author_opt_outs_username" ON "author_opt_outs" USING btree ("username");--> statement-breakpoint
CREATE INDEX "threads_username_lower" ON "threads" USING btree (lower("username"));--> statement-breakpoint
-- Tokens stored before scopes were recorded were asked for with these two (the old sign-in).
UPDATE "threads_tokens" SET "scopes" = '{threads_basic,threads_content_publish}'::text[];
