-- Passkeys (issue 52 item 2): WebAuthn credentials registered as a second factor beside the
-- authenticator app; the registration's challenge on the user row, the sign-in's on its challenge.
CREATE TABLE "user_passkeys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_passkeys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);--> statement-breakpoint
ALTER TABLE "user_passkeys" ADD CONSTRAINT "user_passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_passkeys_credential_key" ON "user_passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "user_passkeys_user_idx" ON "user_passkeys" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "passkey_challenge" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "passkey_challenge_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "login_challenges" ADD COLUMN "webauthn_challenge" text;
