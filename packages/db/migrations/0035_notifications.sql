-- The notification centre and its outbox (issue 31, slice 2). Each event is one row, raised once
-- (event_key unique: a second raise of the same event writes nothing) in the same transaction as
-- the change it tells of — by triggers on the tables whose state changes are the events, so no
-- code path that changes them can forget it, and raising is one insert, never a wait on mail,
-- Telegram or push: the delivery job reads the rows later (delivered_at).
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"event_key" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_event_key" ON "notifications" USING btree ("event_key");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_undelivered_idx" ON "notifications" USING btree ("id") WHERE "notifications"."delivered_at" is null;--> statement-breakpoint
CREATE FUNCTION notify_user(p_user bigint, p_kind text, p_key text, p_params jsonb, p_link text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO notifications (user_id, kind, event_key, params, link) VALUES (p_user, p_kind, p_key, p_params, p_link)
  ON CONFLICT (event_key) DO NOTHING
$$;
--> statement-breakpoint
-- A robot stopped (not by its owner), paused by the MT5 terminal going offline, or paused by an
-- error (the reason as stored: "key: venue message"). A pause or stop by the owner tells nothing new.
CREATE FUNCTION notifications_on_robot() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_reason text := CASE WHEN NEW.status = 'stopped' THEN NEW.stop_reason ELSE NEW.pause_reason END;
  v_kind text;
BEGIN
  IF v_reason IS NOT DISTINCT FROM 'user' OR (NEW.status = 'paused' AND v_reason IS NULL) THEN RETURN NULL; END IF;
  v_kind := CASE WHEN NEW.status = 'stopped' THEN 'robot.stopped' WHEN v_reason = 'mt5Offline' THEN 'robot.mt5Offline' ELSE 'robot.error' END;
  PERFORM notify_user(NEW.user_id, v_kind,
    'robot:' || NEW.id || ':' || NEW.status || ':' || to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS'),
    jsonb_build_object('robotId', NEW.id, 'symbol', NEW.symbol, 'strategy', NEW.strategy, 'mode', NEW.mode, 'reason', v_reason),
    '/pages/orderDetail/orderDetail?id=' || NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "robots_notify" AFTER UPDATE OF "status" ON "robots" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('paused', 'stopped')) EXECUTE FUNCTION notifications_on_robot();
--> statement-breakpoint
-- A withdrawal approved (processing after review), paid (completed), rejected or failed.
CREATE FUNCTION notifications_on_withdrawal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_kind text := CASE NEW.status WHEN 'processing' THEN 'withdraw.approved' WHEN 'completed' THEN 'withdraw.paid' WHEN 'rejected' THEN 'withdraw.rejected' ELSE 'withdraw.failed' END;
BEGIN
  PERFORM notify_user(NEW.user_id, v_kind, 'withdraw:' || NEW.id || ':' || NEW.status,
    jsonb_build_object('withdrawId', NEW.id, 'amount', NEW.amount, 'network', NEW.network, 'reason', NEW.reason),
    '/pages/withdraw/withdrawDetail?id=' || NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "withdrawals_notify" AFTER UPDATE OF "status" ON "withdrawals" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('processing', 'completed', 'rejected', 'failed')) EXECUTE FUNCTION notifications_on_withdrawal();
--> statement-breakpoint
-- A chain deposit credited to the balance.
CREATE FUNCTION notifications_on_deposit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_user(NEW.user_id, 'deposit.credited', 'deposit:' || NEW.id,
    jsonb_build_object('depositId', NEW.id, 'amount', NEW.amount, 'network', NEW.network), '/pages/wallet/wallet');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "chain_deposits_notify" AFTER UPDATE OF "status" ON "chain_deposits" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status = 'credited') EXECUTE FUNCTION notifications_on_deposit();
--> statement-breakpoint
-- A card checkout paid (its Lightning credited).
CREATE FUNCTION notifications_on_card() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_user(NEW.user_id, 'deposit.credited', 'card:' || NEW.id,
    jsonb_build_object('checkoutId', NEW.id, 'amount', NEW.amount, 'network', 'card'), '/pages/wallet/wallet');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "card_checkouts_notify" AFTER UPDATE OF "status" ON "card_checkouts" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status = 'paid') EXECUTE FUNCTION notifications_on_card();
--> statement-breakpoint
-- An auto-renewal that failed (the reason and the balance it found).
CREATE FUNCTION notifications_on_renewal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_purchase record;
BEGIN
  SELECT user_id, item, market INTO v_purchase FROM benefit_purchases WHERE id = NEW.purchase_id;
  PERFORM notify_user(v_purchase.user_id, 'pack.renewalFailed', 'renewal:' || NEW.purchase_id || ':' || NEW.period,
    jsonb_build_object('purchaseId', NEW.purchase_id, 'item', v_purchase.item, 'market', v_purchase.market, 'amount', NEW.amount, 'balance', NEW.balance, 'reason', NEW.reason),
    '/pages/equity/index');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "benefit_renewals_notify" AFTER INSERT ON "benefit_renewals" FOR EACH ROW
  WHEN (NEW.status = 'failed') EXECUTE FUNCTION notifications_on_renewal();
--> statement-breakpoint
-- A trading account frozen (its seat expired).
CREATE FUNCTION notifications_on_freeze() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_user(NEW.user_id, 'account.frozen', 'frozen:' || NEW.id || ':' || to_char(coalesce(NEW.frozen_at, now()) AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS'),
    jsonb_build_object('accountId', NEW.id, 'market', NEW.market, 'exchange', NEW.exchange, 'accountName', NEW.account_name),
    '/pages/apikey/apiList');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "trading_accounts_notify" AFTER UPDATE OF "frozen" ON "trading_accounts" FOR EACH ROW
  WHEN (NOT OLD.frozen AND NEW.frozen) EXECUTE FUNCTION notifications_on_freeze();
