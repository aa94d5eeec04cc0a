-- VIP progress (issue 30, slice 2): each user's figures of the last computation (one row per user,
-- rewritten by every run: a second run of a day writes the same), and every level change with its
-- time and why (reached by the figures, or an operator's grant).
CREATE TABLE "vip_progress" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"as_of" date NOT NULL,
	"window_from" timestamp with time zone NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"own_volume" numeric(30, 2) NOT NULL,
	"team_volume" numeric(30, 2) NOT NULL,
	"active_direct" integer NOT NULL,
	"team_active" integer NOT NULL,
	"reached" text NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vip_progress" ADD CONSTRAINT "vip_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "user_level_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_level_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"from_level" text NOT NULL,
	"to_level" text NOT NULL,
	"reason" text NOT NULL,
	"as_of" date,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_level_changes_reason" CHECK ("user_level_changes"."reason" in ('reached', 'operator'))
);
--> statement-breakpoint
ALTER TABLE "user_level_changes" ADD CONSTRAINT "user_level_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_level_changes_user_idx" ON "user_level_changes" USING btree ("user_id","id");--> statement-breakpoint
-- The fills of a window, whatever the robot: what the VIP computation and the rankings scan.
CREATE INDEX "robot_fills_filled_at_idx" ON "robot_fills" USING btree ("filled_at");
