-- Drift alerts (issue 33, slice 4): each robot's threshold, set by its owner (the gap between its
-- live result and its shadow backtest's, in percent of capital; and whether a missed trade alone
-- alerts), and on the shadow where the alerts stand — over the threshold now (alerted once for this
-- crossing), the missed trades already told of, and the crossings counted (each alert's key).
ALTER TABLE "robots" ADD COLUMN "drift_alert_pct" numeric(6, 2) DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "robots" ADD COLUMN "drift_alert_missed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "robot_shadows" ADD COLUMN "alert_over" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "robot_shadows" ADD COLUMN "alerted_missed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "robot_shadows" ADD COLUMN "crossings" integer DEFAULT 0 NOT NULL;
