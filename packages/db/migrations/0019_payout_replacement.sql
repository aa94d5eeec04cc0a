ALTER TABLE "withdrawals" ADD COLUMN "payout_gas_price" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_earlier_hashes" text[] DEFAULT '{}'::text[] NOT NULL;