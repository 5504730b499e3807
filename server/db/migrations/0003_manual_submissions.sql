CREATE TABLE "generated_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"content" text NOT NULL,
	"media_url" text,
	"quote_post_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"creation_id" text,
	"media_id" text,
	"thread_url" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "generated_posts_thread_id_unique" UNIQUE("thread_id")
);
--> statement-breakpoint
CREATE TABLE "manual_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"thread_url" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "manual_submissions_thread_id_unique" UNIQUE("thread_id")
);
--> statement-breakpoint
ALTER TABLE "threads" ALTER COLUMN "username" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "generated_posts" ADD CONSTRAINT "generated_posts_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_submissions" ADD CONSTRAINT "manual_submissions_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_submissions" ADD CONSTRAINT "manual_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generated_posts_due" ON "generated_posts" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "manual_submissions_user_time" ON "manual_submissions" USING btree ("user_id","created_at");