CREATE TABLE "wallet_exports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_exports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"format" text NOT NULL,
	"from_ms" bigint,
	"to_ms" bigint,
	"status" text NOT NULL,
	"rows" integer,
	"file" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "wallet_exports_status" CHECK ("wallet_exports"."status" in ('exporting', 'exported', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "wallet_exports" ADD CONSTRAINT "wallet_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_exports_user_idx" ON "wallet_exports" USING btree ("user_id","id");