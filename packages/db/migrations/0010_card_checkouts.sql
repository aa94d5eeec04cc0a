CREATE TABLE "card_checkouts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_checkouts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider" text NOT NULL,
	"provider_session" text,
	"checkout_url" text,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"entry_id" bigint,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "card_checkouts_status" CHECK ("card_checkouts"."status" in ('open', 'paid', 'expired', 'failed')),
	CONSTRAINT "card_checkouts_amount" CHECK ("card_checkouts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "card_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "card_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"checkout_id" bigint,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_checkouts" ADD CONSTRAINT "card_checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_events" ADD CONSTRAINT "card_events_checkout_id_card_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."card_checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_checkouts_user_key" ON "card_checkouts" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "card_checkouts_session_key" ON "card_checkouts" USING btree ("provider","provider_session");--> statement-breakpoint
CREATE INDEX "card_checkouts_user_idx" ON "card_checkouts" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_events_event_key" ON "card_events" USING btree ("provider","event_id");