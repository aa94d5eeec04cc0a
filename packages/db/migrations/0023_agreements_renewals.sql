CREATE TABLE "agreement_acceptances" (
	"user_id" bigint NOT NULL,
	"agreement" text NOT NULL,
	"version" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agreement_acceptances_user_id_agreement_version_pk" PRIMARY KEY("user_id","agreement","version"),
	CONSTRAINT "agreement_acceptances_agreement" CHECK ("agreement_acceptances"."agreement" in ('monthEquity', 'autoSubscribe'))
);
--> statement-breakpoint
ALTER TABLE "agreement_acceptances" ADD CONSTRAINT "agreement_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "benefit_purchases" ADD COLUMN "renewals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE "benefit_renewals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "benefit_renewals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"purchase_id" bigint NOT NULL,
	"period" integer NOT NULL,
	"status" text NOT NULL,
	"amount" bigint NOT NULL,
	"entry_id" bigint,
	"reason" text,
	"balance" bigint,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "benefit_renewals_status" CHECK ("benefit_renewals"."status" in ('renewed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "benefit_renewals" ADD CONSTRAINT "benefit_renewals_purchase_id_benefit_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."benefit_purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "benefit_renewals_period_key" ON "benefit_renewals" USING btree ("purchase_id","period");--> statement-breakpoint
CREATE INDEX "benefit_renewals_unnotified_idx" ON "benefit_renewals" USING btree ("id") WHERE "benefit_renewals"."status" = 'failed' and "benefit_renewals"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "benefit_purchases_renew_idx" ON "benefit_purchases" USING btree ("expires_at") WHERE "benefit_purchases"."auto_renew";
