-- A passkey as the step-up of an action on money or keys (issue 52 item 3): the assertion's
-- challenge waits on the user row, apart from a registration's (adding a passkey can be proved
-- with another).
ALTER TABLE "users" ADD COLUMN "step_up_challenge" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "step_up_challenge_until" timestamp with time zone;
