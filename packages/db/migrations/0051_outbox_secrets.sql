-- Codes out of storage (issue 52 item 9): a mail's subject and text are kept only until it is
-- delivered, and a mail carrying a code never past the code's lifetime (`secret_until`).
ALTER TABLE "mail_outbox" ALTER COLUMN "subject" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "secret_until" timestamp with time zone;--> statement-breakpoint
UPDATE "mail_outbox" SET "text" = NULL WHERE "sent_at" IS NOT NULL;--> statement-breakpoint
UPDATE "mail_outbox" SET "subject" = NULL, "text" = NULL WHERE "subject" ~ '\d{6}';--> statement-breakpoint
CREATE INDEX "mail_outbox_secret_idx" ON "mail_outbox" USING btree ("secret_until") WHERE "text" IS NOT NULL AND "secret_until" IS NOT NULL;
