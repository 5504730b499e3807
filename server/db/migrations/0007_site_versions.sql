CREATE TABLE "publisher_lease" (
	"id" integer PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_objects" (
	"hash" text PRIMARY KEY NOT NULL,
	"body" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"files" jsonb NOT NULL,
	"catalogue_version" text,
	"publisher" text NOT NULL,
	"activate_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
