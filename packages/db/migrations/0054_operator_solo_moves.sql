-- What one operator moved alone (issue 53 item 1): each direct wallet adjustment and each
-- withdrawal approved without a second operator, written in the movement's own transaction. Their
-- sums per user over 24 hours and per platform day decide when the next one waits for a second
-- operator, so a big amount split into small ones waits as the big one would.
CREATE TABLE "operator_solo_moves" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_solo_moves_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"operator_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"kind" text NOT NULL,
	"move_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_solo_moves_kind" CHECK ("operator_solo_moves"."kind" in ('wallet.adjust', 'withdraw.approve')),
	CONSTRAINT "operator_solo_moves_amount" CHECK ("operator_solo_moves"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "operator_solo_moves" ADD CONSTRAINT "operator_solo_moves_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_solo_moves_key" ON "operator_solo_moves" USING btree ("operator_id","move_key");--> statement-breakpoint
CREATE INDEX "operator_solo_moves_operator_at" ON "operator_solo_moves" USING btree ("operator_id","created_at");
