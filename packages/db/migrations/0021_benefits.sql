CREATE TABLE "benefit_prices" (
	"item" text PRIMARY KEY NOT NULL,
	"price" bigint NOT NULL,
	"updated_by" text DEFAULT 'seed' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "benefit_prices_item" CHECK ("benefit_prices"."item" in ('unlock', 'seat', 'slot')),
	CONSTRAINT "benefit_prices_price" CHECK ("benefit_prices"."price" > 0)
);
--> statement-breakpoint
INSERT INTO "benefit_prices" ("item", "price") VALUES ('unlock', 100000000), ('seat', 10000000), ('slot', 10000000);--> statement-breakpoint
CREATE TABLE "benefit_purchases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "benefit_purchases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"item" text NOT NULL,
	"market" text,
	"quantity" integer NOT NULL,
	"months" integer,
	"amount" bigint NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"entry_id" bigint,
	"purchased_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	CONSTRAINT "benefit_purchases_item" CHECK ("benefit_purchases"."item" in ('unlock', 'seat', 'slot')),
	CONSTRAINT "benefit_purchases_shape" CHECK (("benefit_purchases"."item" = 'unlock' and "benefit_purchases"."market" is null and "benefit_purchases"."months" is null and "benefit_purchases"."expires_at" is null and "benefit_purchases"."quantity" = 1)
        or ("benefit_purchases"."item" <> 'unlock' and "benefit_purchases"."market" in ('forex', 'crypto') and "benefit_purchases"."months" between 1 and 12 and "benefit_purchases"."expires_at" is not null and "benefit_purchases"."quantity" between 1 and 1000)),
	CONSTRAINT "benefit_purchases_amount" CHECK ("benefit_purchases"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "benefit_purchases" ADD CONSTRAINT "benefit_purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "benefit_purchases_user_key" ON "benefit_purchases" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "benefit_purchases_one_unlock" ON "benefit_purchases" USING btree ("user_id") WHERE "benefit_purchases"."item" = 'unlock';--> statement-breakpoint
CREATE INDEX "benefit_purchases_user_idx" ON "benefit_purchases" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "benefit_purchases_expiry_idx" ON "benefit_purchases" USING btree ("expires_at");
