-- Settings under two keys (issue 53 item 2): a change of a money setting (the amounts that decide
-- who reviews what, the withdrawal limits, prices, rebate and dividend rates) waits in
-- operator_approvals for a second operator, as a big adjustment does; a level grant to VIP2 and
-- above (item 4) too. Neither has a user-facing amount or one object: both may be null/0 for them.
-- One pending change per settings group, so the values an approver reads are the ones applied.
ALTER TABLE "operator_approvals" DROP CONSTRAINT "operator_approvals_kind";--> statement-breakpoint
ALTER TABLE "operator_approvals" ADD CONSTRAINT "operator_approvals_kind" CHECK ("operator_approvals"."kind" in ('wallet.adjust', 'withdraw.approve', 'settings.change', 'user.level'));--> statement-breakpoint
ALTER TABLE "operator_approvals" DROP CONSTRAINT "operator_approvals_amount";--> statement-breakpoint
ALTER TABLE "operator_approvals" ADD CONSTRAINT "operator_approvals_amount" CHECK ("operator_approvals"."amount" > 0 or "operator_approvals"."kind" in ('settings.change', 'user.level'));--> statement-breakpoint
ALTER TABLE "operator_approvals" ALTER COLUMN "object_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_approvals" ADD CONSTRAINT "operator_approvals_object" CHECK ("operator_approvals"."object_id" is not null or "operator_approvals"."kind" = 'settings.change');--> statement-breakpoint
CREATE UNIQUE INDEX "operator_approvals_settings_pending" ON "operator_approvals" USING btree (("request"->>'group')) WHERE "operator_approvals"."kind" = 'settings.change' and "operator_approvals"."status" = 'pending';
