ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_status";--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_status" CHECK ("withdrawals"."status" in ('pendingReview', 'processing', 'completed', 'rejected', 'failed', 'cancelled'));--> statement-breakpoint
ALTER TABLE "wallet_exports" ADD COLUMN "locale" text;