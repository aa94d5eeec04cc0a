-- Sessions the user can see and end (issue 52 item 6): when each was last used, kept to the minute.
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "sessions" SET "last_seen_at" = "created_at";
