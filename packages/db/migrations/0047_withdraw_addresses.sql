-- The withdrawal address book (issue 52, item 4): withdrawals go only to an address the user
-- added, once WITHDRAW_NEW_ADDRESS_HOURS have passed (usable_from). `address_hex` is the address's
-- 20 bytes (as deposit addresses keep them), so one address is one entry however it is written.
CREATE TABLE "withdraw_addresses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withdraw_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"address_hex" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"usable_from" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "withdraw_addresses_network" CHECK ("network" in ('BEP20', 'TRC20'))
);
--> statement-breakpoint
ALTER TABLE "withdraw_addresses" ADD CONSTRAINT "withdraw_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdraw_addresses_live_key" ON "withdraw_addresses" USING btree ("user_id","network","address_hex") WHERE "removed_at" is null;--> statement-breakpoint
CREATE INDEX "withdraw_addresses_user_idx" ON "withdraw_addresses" USING btree ("user_id","id");
