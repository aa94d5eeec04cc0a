ALTER TABLE "trading_accounts" ADD COLUMN "frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD COLUMN "freeze_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD COLUMN "unfrozen_at" timestamp with time zone;
