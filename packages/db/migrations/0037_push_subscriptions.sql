-- Web Push (issue 31, slice 5): one row per device a user turned notifications on for — the push
-- service's endpoint (unique: a device re-subscribing under another account moves to it) and the
-- browser's keys the payload is encrypted for. Removed when the push service answers 404/410.
CREATE TABLE "push_subscriptions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "push_subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");
--> statement-breakpoint
-- A robot's event key took the change's time to the microsecond, which the embedded database's
-- clock does not always resolve: two pauses a moment apart became one event. The transaction id
-- tells changes apart (one status change per robot per transaction).
CREATE OR REPLACE FUNCTION notifications_on_robot() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_reason text := CASE WHEN NEW.status = 'stopped' THEN NEW.stop_reason ELSE NEW.pause_reason END;
  v_kind text;
BEGIN
  IF v_reason IS NOT DISTINCT FROM 'user' OR (NEW.status = 'paused' AND v_reason IS NULL) THEN RETURN NULL; END IF;
  v_kind := CASE WHEN NEW.status = 'stopped' THEN 'robot.stopped' WHEN v_reason = 'mt5Offline' THEN 'robot.mt5Offline' ELSE 'robot.error' END;
  PERFORM notify_user(NEW.user_id, v_kind,
    'robot:' || NEW.id || ':' || NEW.status || ':' || txid_current() || ':' || to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS'),
    jsonb_build_object('robotId', NEW.id, 'symbol', NEW.symbol, 'strategy', NEW.strategy, 'mode', NEW.mode, 'reason', v_reason),
    '/pages/orderDetail/orderDetail?id=' || NEW.id);
  RETURN NULL;
END
$$;
