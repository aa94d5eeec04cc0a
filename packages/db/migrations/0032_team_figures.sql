-- The team page's figures over the statistics window (the 30 days before the day, not cut at the
-- 1st), written by the daily VIP computation beside the progress figures: the summary of a team of
-- 100,000 reads one row instead of summing their fills (issue 30, "How fast").
ALTER TABLE "vip_progress" ADD COLUMN "team_volume_30d" numeric(30, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "vip_progress" ADD COLUMN "team_active_30d" integer DEFAULT 0 NOT NULL;
