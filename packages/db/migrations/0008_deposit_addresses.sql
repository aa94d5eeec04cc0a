CREATE TABLE "deposit_addresses" (
	"user_id" bigint NOT NULL,
	"network" text NOT NULL,
	"derivation_index" bigint NOT NULL,
	"address" text NOT NULL,
	"address_hex" text NOT NULL,
	"key_fingerprint" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_user_id_network_pk" PRIMARY KEY("user_id","network"),
	CONSTRAINT "deposit_addresses_network" CHECK ("deposit_addresses"."network" in ('BEP20', 'TRC20'))
);
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_network_hex_key" ON "deposit_addresses" USING btree ("network","address_hex");