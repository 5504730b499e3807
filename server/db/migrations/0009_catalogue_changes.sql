CREATE TABLE "catalogue_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"thread_id" uuid NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"was_approved" boolean NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "catalogue_changes_xid" ON "catalogue_changes" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "catalogue_changes_at" ON "catalogue_changes" USING btree ("at");
--> statement-breakpoint
-- Logs a catalogue thread whose card changed (decision 037), and whether it was approved before the
-- change (then the last full export may hold it). Only what a public card shows counts:
-- the deletion sync's bookkeeping or a refreshed picture address (the card links to our copy) does
-- not make the export look again.
CREATE FUNCTION "log_catalogue_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'approved' THEN
      INSERT INTO "catalogue_changes" ("thread_id", "was_approved") VALUES (NEW.id, false);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF OLD.status = 'approved' THEN
      INSERT INTO "catalogue_changes" ("thread_id", "was_approved") VALUES (OLD.id, true);
    END IF;
    RETURN NULL;
  END IF;
  IF (OLD.status = 'approved' OR NEW.status = 'approved') AND (
    OLD.status, OLD.username, OLD.author_name, OLD.text, OLD.image_url IS NULL, OLD.likes, OLD.replies,
    OLD.permalink, OLD.posted_at, OLD.created_at, OLD.topic_tag, OLD.shortcode
  ) IS DISTINCT FROM (
    NEW.status, NEW.username, NEW.author_name, NEW.text, NEW.image_url IS NULL, NEW.likes, NEW.replies,
    NEW.permalink, NEW.posted_at, NEW.created_at, NEW.topic_tag, NEW.shortcode
  ) THEN
    INSERT INTO "catalogue_changes" ("thread_id", "was_approved") VALUES (NEW.id, OLD.status = 'approved');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "threads_catalogue_changes" AFTER INSERT OR UPDATE OR DELETE ON "threads"
  FOR EACH ROW EXECUTE FUNCTION "log_catalogue_change"();
