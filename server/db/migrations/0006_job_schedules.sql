CREATE TABLE "job_schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"next_due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_holder" text,
	"lease_until" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_outcome" text
);
