ALTER TABLE "withdrawals" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reviewed_at" timestamp with time zone;