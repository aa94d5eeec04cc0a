-- Leaner writes for every money movement (issue 16, "how fast"): indexes no request reads are
-- dropped, the resolution key index holds only resolved entries.
DROP INDEX "ledger_entries_user_idx";--> statement-breakpoint
DROP INDEX "ledger_lines_account_idx";--> statement-breakpoint
DROP INDEX "ledger_entries_resolution_key";--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_resolution_key" ON "ledger_entries" USING btree ("resolution_key") WHERE "ledger_entries"."resolution_key" is not null;--> statement-breakpoint
-- The function's statements take their arrays as parameters, so the plan cache kept choosing a
-- custom plan and planned every statement on every call (a fifth of the server's time per
-- movement). The generic plans are the same nested loops over the unique code index at any size.
ALTER FUNCTION ledger_post_entry(text, text, text, boolean, bigint, text, jsonb, text[], text[], bigint[], bigint[])
  SET plan_cache_mode = force_generic_plan;
