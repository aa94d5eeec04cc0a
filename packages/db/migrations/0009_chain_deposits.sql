CREATE TABLE "chain_cursors" (
	"network" text PRIMARY KEY NOT NULL,
	"next_block" bigint NOT NULL,
	"last_head" bigint,
	"chain_id" bigint,
	"scanned_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "chain_deposits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_deposits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"to_hex" text NOT NULL,
	"user_id" bigint NOT NULL,
	"raw_amount" numeric(78, 0) NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"batch_key" text,
	"entry_id" bigint,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"credited_at" timestamp with time zone,
	CONSTRAINT "chain_deposits_status" CHECK ("chain_deposits"."status" in ('pending', 'dropped', 'confirmed', 'credited')),
	CONSTRAINT "chain_deposits_amount" CHECK ("chain_deposits"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_deposits_transfer_key" ON "chain_deposits" USING btree ("network","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "chain_deposits_user_idx" ON "chain_deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "chain_deposits_open_idx" ON "chain_deposits" USING btree ("network","status","block_number") WHERE "chain_deposits"."status" in ('pending', 'confirmed');--> statement-breakpoint
CREATE INDEX "chain_deposits_batch_idx" ON "chain_deposits" USING btree ("batch_key");