ALTER TABLE "generated_posts" ALTER COLUMN "thread_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "generated_posts" ADD COLUMN "digest_id" text;--> statement-breakpoint
ALTER TABLE "generated_posts" ADD CONSTRAINT "generated_posts_digest_id_unique" UNIQUE("digest_id");--> statement-breakpoint
ALTER TABLE "generated_posts" ADD CONSTRAINT "generated_posts_one_subject" CHECK (("generated_posts"."thread_id" is null) <> ("generated_posts"."digest_id" is null));