CREATE TABLE "gems" (
	"user_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gems_user_id_thread_id_pk" PRIMARY KEY("user_id","thread_id")
);
--> statement-breakpoint
CREATE TABLE "role_bindings" (
	"role" text NOT NULL,
	"username" text NOT NULL,
	"threads_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_bindings_role_username_pk" PRIMARY KEY("role","username")
);
--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "gems" ADD CONSTRAINT "gems_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gems" ADD CONSTRAINT "gems_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gems_thread" ON "gems" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "threads_decided" ON "threads" USING btree ("decided_at","id");