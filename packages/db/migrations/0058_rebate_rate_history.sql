-- Rates at payment time (issue 53 item 7): every change of the rebate rates is kept with the time
-- it took effect, and a payment is settled at the rates in force when it was made, not those of
-- the day it is settled. The rates stored before this history began count from the beginning.
CREATE TABLE "rebate_rate_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rebate_rate_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rates" jsonb NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rebate_rate_history_since" ON "rebate_rate_history" USING btree ("since","id");--> statement-breakpoint
INSERT INTO "rebate_rate_history" ("rates", "since") SELECT "value", '-infinity'::timestamptz FROM "app_settings" WHERE "key" = 'rebate.rates';
