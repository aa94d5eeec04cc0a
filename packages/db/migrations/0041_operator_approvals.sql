-- Two people for big money (issue 32, slice 3; business.md "Notices, notifications, operators"): a
-- wallet adjustment or a withdrawal approval above the operator-set amount waits here until a
-- second operator approves it. The database itself refuses an approval decided by the operator
-- who asked for it, and a second pending approval of one withdrawal.
CREATE TABLE "operator_approvals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_approvals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"object_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"request" jsonb NOT NULL,
	"reason" text NOT NULL,
	"requested_by" bigint NOT NULL,
	"request_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_approvals_kind" CHECK ("operator_approvals"."kind" in ('wallet.adjust', 'withdraw.approve')),
	CONSTRAINT "operator_approvals_status" CHECK ("operator_approvals"."status" in ('pending', 'approved', 'rejected', 'cancelled')),
	CONSTRAINT "operator_approvals_amount" CHECK ("operator_approvals"."amount" > 0),
	CONSTRAINT "operator_approvals_two_people" CHECK ("operator_approvals"."status" <> 'approved' or ("operator_approvals"."decided_by" is not null and "operator_approvals"."decided_by" <> "operator_approvals"."requested_by"))
);
--> statement-breakpoint
ALTER TABLE "operator_approvals" ADD CONSTRAINT "operator_approvals_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_approvals" ADD CONSTRAINT "operator_approvals_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_approvals_request_key" ON "operator_approvals" USING btree ("requested_by","request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_approvals_withdraw_pending" ON "operator_approvals" USING btree ("object_id") WHERE "operator_approvals"."kind" = 'withdraw.approve' and "operator_approvals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "operator_approvals_status_idx" ON "operator_approvals" USING btree ("status","id");
