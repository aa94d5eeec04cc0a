-- The referral tree as a closure table (issue 30): a row per (ancestor, descendant) pair at any
-- depth ≥ 1, written once when the descendant registers (the referrer never changes). Team size,
-- "is X below Y" and a user's upline in order are each one lookup in a plain B-tree, the same on
-- PGlite and PostgreSQL (docs/architecture.md, "Referral tree").
CREATE TABLE "user_tree" (
	"ancestor_id" bigint NOT NULL,
	"descendant_id" bigint NOT NULL,
	"depth" integer NOT NULL,
	CONSTRAINT "user_tree_pkey" PRIMARY KEY("ancestor_id","descendant_id"),
	CONSTRAINT "user_tree_depth" CHECK ("user_tree"."depth" >= 1)
);
--> statement-breakpoint
ALTER TABLE "user_tree" ADD CONSTRAINT "user_tree_ancestor_id_users_id_fk" FOREIGN KEY ("ancestor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_tree" ADD CONSTRAINT "user_tree_descendant_id_users_id_fk" FOREIGN KEY ("descendant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_tree_upline_key" ON "user_tree" USING btree ("descendant_id","depth");--> statement-breakpoint
-- The users registered before: every (ancestor, descendant) pair from the referrer links.
INSERT INTO "user_tree" ("ancestor_id", "descendant_id", "depth")
WITH RECURSIVE up ("descendant_id", "ancestor_id", "depth") AS (
	SELECT "id", "referrer_id", 1 FROM "users" WHERE "referrer_id" IS NOT NULL
	UNION ALL
	SELECT up."descendant_id", u."referrer_id", up."depth" + 1 FROM up JOIN "users" u ON u."id" = up."ancestor_id" WHERE u."referrer_id" IS NOT NULL
)
SELECT "ancestor_id", "descendant_id", "depth" FROM up;
