-- The security lock (issue 52, item 5): after a login-password change or reset, two-step turned
-- off, or a payment password changed or reset, withdrawals (and address additions) wait until
-- this moment.
ALTER TABLE "users" ADD COLUMN "withdraw_locked_until" timestamp with time zone;
