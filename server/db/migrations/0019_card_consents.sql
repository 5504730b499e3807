CREATE TABLE "card_consents" (
	"threads_user_id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "shown_as_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "card_consents_username" ON "card_consents" USING btree ("username");--> statement-breakpoint
-- Decision 070: a thread's shown_as_card follows its author's consent. On insert and whenever its
-- author fields change it is read from card_consents: by the lower-case username the row carries, or
-- for a member's own post by its owner's Threads user id. A consent change updates the rows itself
-- (author-control.ts), so the trigger never has to look the other way.
CREATE FUNCTION "thread_shown_as_card"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.shown_as_card := EXISTS (
    SELECT 1 FROM "card_consents" c WHERE c.username = lower(NEW.username)
  ) OR EXISTS (
    SELECT 1 FROM "card_consents" c JOIN "users" u ON u.threads_user_id = c.threads_user_id
    WHERE u.id = NEW.owner_user_id
  );
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "threads_shown_as_card" BEFORE INSERT OR UPDATE OF "username", "owner_user_id" ON "threads"
  FOR EACH ROW EXECUTE FUNCTION "thread_shown_as_card"();
--> statement-breakpoint
-- The change log now also sees a consent given or withdrawn: the card changes between copy and embed.
CREATE OR REPLACE FUNCTION "log_catalogue_change"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    OLD.permalink, OLD.posted_at, OLD.created_at, OLD.topic_tag, OLD.shortcode, OLD.shown_as_card
  ) IS DISTINCT FROM (
    NEW.status, NEW.username, NEW.author_name, NEW.text, NEW.image_url IS NULL, NEW.likes, NEW.replies,
    NEW.permalink, NEW.posted_at, NEW.created_at, NEW.topic_tag, NEW.shortcode, NEW.shown_as_card
  ) THEN
    INSERT INTO "catalogue_changes" ("thread_id", "was_approved") VALUES (NEW.id, OLD.status = 'approved');
  END IF;
  RETURN NULL;
END
$$;
