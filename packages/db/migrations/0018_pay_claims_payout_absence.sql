ALTER TABLE "users" ADD COLUMN "pay_pwd_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_signed_block" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_absent_reads" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_absent_since" timestamp with time zone;