-- Volume from made-up fills (issue 53 item 12): an MT5 fill is what the user's own Expert Advisor
-- reports, so each is checked against the market before it counts — a price outside its minute's
-- candle (beyond the spread's tolerance) or a size the account could not margin marks it suspect,
-- and suspect fills count for no VIP volume or ranking. `checked_at` null: waits for the check
-- (only live MT5 fills are written so; every other fill comes from the exchange or our simulation).
-- Fills before this migration stay as they were counted: judged now, they would meet today's
-- equity and candles that were never recorded.
ALTER TABLE "robot_fills" ADD COLUMN "suspect" text;--> statement-breakpoint
ALTER TABLE "robot_fills" ADD COLUMN "checked_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
CREATE INDEX "robot_fills_unchecked" ON "robot_fills" USING btree ("filled_at") WHERE "checked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "robot_fills_suspect" ON "robot_fills" USING btree ("checked_at") WHERE "suspect" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "robot_fills_order_idx" ON "robot_fills" USING btree ("robot_id","client_order_id");--> statement-breakpoint
CREATE INDEX "robot_intents_ticket_idx" ON "robot_intents" USING btree ("robot_id","ticket");
