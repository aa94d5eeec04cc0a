-- Issue 30 "How fast". Rankings rewrite every board whole each day from users (one row per ranked
-- user, ~1 M on the team board at a million users): the foreign key's per-row check into users
-- cost seconds and guarded nothing a user's deletion could break (users are never deleted).
-- Rebate settlement and the VIP job walk uplines by descendant: with the ancestor in the index
-- they read the index alone, not one heap page per closure row.
ALTER TABLE "ranking_entries" DROP CONSTRAINT "ranking_entries_user_id_users_id_fk";--> statement-breakpoint
DROP INDEX "user_tree_upline_key";--> statement-breakpoint
CREATE UNIQUE INDEX "user_tree_upline_key" ON "user_tree" USING btree ("descendant_id","depth") INCLUDE ("ancestor_id");
