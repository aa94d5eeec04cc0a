-- Dividends (issue 30, slice 5): one row per month settled (the claim, written in the transaction
-- that pays it: the ledger entry keyed dividend:<month>) and one per user paid.
CREATE TABLE "dividend_months" (
	"month" text PRIMARY KEY NOT NULL,
	"revenue" bigint NOT NULL,
	"rate" integer NOT NULL,
	"pool" bigint NOT NULL,
	"recipients" integer NOT NULL,
	"per_user" bigint NOT NULL,
	"settled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dividends" (
	"month" text NOT NULL,
	"user_id" bigint NOT NULL,
	"level" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "dividends_pkey" PRIMARY KEY("month","user_id")
);
--> statement-breakpoint
ALTER TABLE "dividends" ADD CONSTRAINT "dividends_month_dividend_months_month_fk" FOREIGN KEY ("month") REFERENCES "public"."dividend_months"("month") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividends" ADD CONSTRAINT "dividends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
