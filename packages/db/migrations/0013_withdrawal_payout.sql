ALTER TABLE "withdrawals" ADD COLUMN "payout" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_check" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_tx_key" ON "withdrawals" USING btree ("network","tx_hash");