ALTER TABLE "ledger_lines" ADD COLUMN "user_id" bigint;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD COLUMN "kind" text;--> statement-breakpoint
CREATE INDEX "ledger_lines_user_idx" ON "ledger_lines" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "ledger_lines_user_kind_idx" ON "ledger_lines" USING btree ("user_id","kind","id");--> statement-breakpoint
UPDATE "ledger_lines" l SET "user_id" = a."user_id", "kind" = e."kind"
  FROM "ledger_accounts" a, "ledger_entries" e WHERE a."id" = l."account_id" AND e."id" = l."entry_id";
