-- Freezing a user (issue 32, slice 2): an operator freezes a user with a reason; a frozen user
-- cannot sign in and their sessions stop working; unfreezing clears both columns. The history of
-- who froze whom and why is in the audit log.
ALTER TABLE "users" ADD COLUMN "frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "frozen_reason" text;
