ALTER TABLE "withdrawals" ADD COLUMN "payout_raw" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_from" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_nonce" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_payout_nonce_key" ON "withdrawals" USING btree ("payout_from","payout_nonce");