CREATE TABLE "curation_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"searches" integer DEFAULT 0 NOT NULL,
	"hidden" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"threads_user_id" text NOT NULL,
	"query" text NOT NULL,
	"called_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shortcode" text NOT NULL,
	"media_id" text,
	"source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"query" text,
	"username" text NOT NULL,
	"author_name" text,
	"text" text DEFAULT '' NOT NULL,
	"image_url" text,
	"topic_tag" text,
	"permalink" text NOT NULL,
	"likes" integer,
	"replies" integer,
	"posted_at" timestamp with time zone,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"owner_user_id" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "threads_shortcode_unique" UNIQUE("shortcode")
);
--> statement-breakpoint
ALTER TABLE "threads" ADD CONSTRAINT "threads_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_calls_user_time" ON "search_calls" USING btree ("threads_user_id","called_at");--> statement-breakpoint
CREATE INDEX "threads_status_posted" ON "threads" USING btree ("status","posted_at");--> statement-breakpoint
CREATE INDEX "threads_owner" ON "threads" USING btree ("owner_user_id");