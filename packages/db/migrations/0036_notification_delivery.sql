-- Delivering notifications (issue 31, slice 3): the user's preferences per event and channel, the
-- Telegram chat a user linked with a one-time deep-link token, and one delivery row per
-- notification and channel, which the delivery job claims, sends, retries with backoff and closes.
CREATE TABLE "notification_prefs" (
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_prefs_pkey" PRIMARY KEY("user_id","kind","channel")
);
--> statement-breakpoint
ALTER TABLE "notification_prefs" ADD CONSTRAINT "notification_prefs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "telegram_links" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"chat_id" text,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"linked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_links" ADD CONSTRAINT "telegram_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_links_token_key" ON "telegram_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "telegram_links_chat_idx" ON "telegram_links" USING btree ("chat_id");--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"notification_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"mail_id" bigint,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY("notification_id","channel")
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_at") WHERE "notification_deliveries"."status" = 'pending';--> statement-breakpoint
-- A robot's fill tells its owner only when asked for (robot.filled is opt-in: a grid robot fills
-- all day), so the trigger writes nothing unless a channel of it is switched on.
CREATE FUNCTION notifications_on_fill() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  SELECT id, user_id, symbol, strategy, mode INTO r FROM robots WHERE id = NEW.robot_id;
  IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM notification_prefs p WHERE p.user_id = r.user_id AND p.kind = 'robot.filled' AND p.enabled) THEN RETURN NULL; END IF;
  PERFORM notify_user(r.user_id, 'robot.filled', 'fill:' || NEW.id,
    jsonb_build_object('robotId', r.id, 'symbol', r.symbol, 'strategy', r.strategy, 'mode', r.mode, 'action', NEW.action,
      'side', NEW.position_side, 'qty', NEW.qty::text, 'price', NEW.price::text, 'pnl', NEW.pnl::text),
    '/pages/orderDetail/orderDetail?id=' || r.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "robot_fills_notify" AFTER INSERT ON "robot_fills" FOR EACH ROW EXECUTE FUNCTION notifications_on_fill();
