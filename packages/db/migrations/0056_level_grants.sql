-- Level grants under two keys (issue 53 item 4): a grant of VIP2 or above (higher rebate rates,
-- dividend shares) by an operator waits in operator_approvals (kind user.level) for a second one;
-- every operator change of a level keeps who asked and who approved it. One grant per user waits
-- at a time.
ALTER TABLE "user_level_changes" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "user_level_changes" ADD COLUMN "approved_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_approvals_level_pending" ON "operator_approvals" USING btree ("object_id") WHERE "operator_approvals"."kind" = 'user.level' and "operator_approvals"."status" = 'pending';
