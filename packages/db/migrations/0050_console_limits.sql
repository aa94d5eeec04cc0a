-- Console limits (issue 52 item 8): wrong second-factor codes counted per session (5 end it) and
-- per operator across sessions (10 in a row pause the factor); the password lock-out per
-- (operator, address), so nobody can lock an operator out from elsewhere.
ALTER TABLE "operator_sessions" ADD COLUMN "second_factor_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "second_factor_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "second_factor_locked_until" timestamp with time zone;--> statement-breakpoint
-- operators.failed_logins and locked_until are no longer read; kept until every process runs this
-- code (a rolling deploy's older processes still read them), then dropped by a later migration.
CREATE TABLE "operator_login_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_login_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"operator_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "operator_login_failures" ADD CONSTRAINT "operator_login_failures_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_login_failures_idx" ON "operator_login_failures" USING btree ("operator_id","ip","created_at");
