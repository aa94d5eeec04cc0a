-- Rankings (issue 30, slice 4): each leaderboard's entries as the daily job computed them over the
-- statistics window (referrals/rankings.ts), rewritten whole by each run in one transaction.
CREATE TABLE "ranking_entries" (
	"board" text NOT NULL,
	"rank" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"value" numeric(30, 6) NOT NULL,
	CONSTRAINT "ranking_entries_pkey" PRIMARY KEY("board","rank"),
	CONSTRAINT "ranking_entries_board" CHECK ("ranking_entries"."board" in ('volume', 'team', 'rebate'))
);
--> statement-breakpoint
ALTER TABLE "ranking_entries" ADD CONSTRAINT "ranking_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ranking_entries_user_key" ON "ranking_entries" USING btree ("board","user_id");
