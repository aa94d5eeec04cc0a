-- Notices as notifications (issue 31, slice 6): a notice that goes live is fanned out to the users
-- who switched "new notices" on for a channel, a chunk of users at a time (fanout_cursor: the last
-- user id handed a row; fanned_out_at: done), so a crash resumes where it stopped and a notice
-- published again after being taken down is not sent twice. Notices already live are not sent.
ALTER TABLE "notices" ADD COLUMN "fanout_cursor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "fanned_out_at" timestamp with time zone;--> statement-breakpoint
UPDATE "notices" SET "fanned_out_at" = now() WHERE "status" = 'published' AND "publish_at" <= now();--> statement-breakpoint
CREATE INDEX "notices_fanout_idx" ON "notices" USING btree ("publish_at") WHERE "notices"."fanned_out_at" is null and "notices"."status" = 'published';--> statement-breakpoint
CREATE INDEX "notification_prefs_kind_user_idx" ON "notification_prefs" USING btree ("kind","user_id") WHERE "notification_prefs"."enabled";
