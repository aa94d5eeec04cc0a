-- Funding (issue 33): what a live robot on a perpetual paid (negative) or received at each funding
-- settlement, as its venue reports it, recorded once per payment (the venue's id) by the drift
-- check. The backtest models no funding, so all of it is drift.
CREATE TABLE "robot_funding" (
	"robot_id" bigint NOT NULL,
	"venue_id" text NOT NULL,
	"amount" numeric(30, 12) NOT NULL,
	"paid_at" bigint NOT NULL,
	CONSTRAINT "robot_funding_pkey" PRIMARY KEY("robot_id","venue_id")
);
--> statement-breakpoint
ALTER TABLE "robot_funding" ADD CONSTRAINT "robot_funding_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "robot_funding_time_idx" ON "robot_funding" USING btree ("robot_id","paid_at");
