CREATE TABLE "notice_mail_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_mail_addresses_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "mail_sends" ADD COLUMN "notice_address_id" uuid;--> statement-breakpoint
ALTER TABLE "notice_mail_addresses" ADD CONSTRAINT "notice_mail_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_sends" ADD CONSTRAINT "mail_sends_notice_address_id_notice_mail_addresses_id_fk" FOREIGN KEY ("notice_address_id") REFERENCES "public"."notice_mail_addresses"("id") ON DELETE set null ON UPDATE no action;