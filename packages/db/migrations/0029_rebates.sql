-- Rebate settlement (issue 30, slice 3; business.md "Settlement, precisely"). One row per source
-- payment settled (a posted ledger entry of kind purchase: unlock, pack, renewal), written in the
-- transaction that posts its rebates (the ledger entry keyed rebate:<entry_id>): the row is the
-- claim, so a payment is settled once however often, or however killed, the job runs.
CREATE TABLE "rebate_payments" (
	"entry_id" bigint PRIMARY KEY NOT NULL,
	"payer_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"rebate_total" bigint NOT NULL,
	"settled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rebate_payments" ADD CONSTRAINT "rebate_payments_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebate_payments" ADD CONSTRAINT "rebate_payments_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- What each referrer earned on a payment: its differential or its same-level share.
CREATE TABLE "rebates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rebates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_entry_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"payer_id" bigint NOT NULL,
	"depth" integer NOT NULL,
	"level" text NOT NULL,
	"kind" text NOT NULL,
	"rate" integer NOT NULL,
	"payment_amount" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rebates_kind" CHECK ("rebates"."kind" in ('differential', 'share')),
	CONSTRAINT "rebates_amount" CHECK ("rebates"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_payment_entry_id_rebate_payments_entry_id_fk" FOREIGN KEY ("payment_entry_id") REFERENCES "public"."rebate_payments"("entry_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rebates_payment_user_key" ON "rebates" USING btree ("payment_entry_id","user_id","kind");--> statement-breakpoint
-- A user's rebates by time, with the amount: history pages and today/month/total sums from the index.
CREATE INDEX "rebates_user_idx" ON "rebates" USING btree ("user_id","created_at","id") INCLUDE ("amount");--> statement-breakpoint
-- The payments of a day, in order: what settlement walks (partial: only purchases pay this write).
CREATE INDEX "ledger_entries_purchase_idx" ON "ledger_entries" USING btree ("created_at","id") WHERE "ledger_entries"."kind" = 'purchase';
