CREATE TABLE "mt5_deals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mt5_deals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"deal" text NOT NULL,
	"order" text,
	"position_id" text,
	"magic" text,
	"client_order_id" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "robot_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "robot_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"robot_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"message" text,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "robot_fills" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "robot_fills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"robot_id" bigint NOT NULL,
	"client_order_id" text NOT NULL,
	"fill_key" text NOT NULL,
	"action" text NOT NULL,
	"position_side" text NOT NULL,
	"qty" numeric(30, 12) NOT NULL,
	"price" numeric(30, 12) NOT NULL,
	"fee" numeric(24, 8) DEFAULT '0' NOT NULL,
	"pnl" numeric(24, 8) DEFAULT '0' NOT NULL,
	"reason" text,
	"filled_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "robot_intents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "robot_intents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"robot_id" bigint NOT NULL,
	"client_order_id" text NOT NULL,
	"tag" text NOT NULL,
	"ticket" text NOT NULL,
	"action" text NOT NULL,
	"position_side" text NOT NULL,
	"request" jsonb NOT NULL,
	"intent" jsonb NOT NULL,
	"state" text NOT NULL,
	"filled" numeric(30, 12) DEFAULT '0' NOT NULL,
	"average" numeric(30, 12),
	"venue_order_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "robots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "robots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"market" text NOT NULL,
	"mode" text DEFAULT 'live' NOT NULL,
	"strategy" text NOT NULL,
	"symbol" text NOT NULL,
	"trading_pair" text,
	"interval" text NOT NULL,
	"params" jsonb NOT NULL,
	"capital" numeric(24, 8) NOT NULL,
	"leverage" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"pause_reason" text,
	"stop_reason" text,
	"income" numeric(24, 8) DEFAULT '0' NOT NULL,
	"live" jsonb,
	"last_candle_at" bigint,
	"source_backtest_id" bigint,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "trading_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trading_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"market" text NOT NULL,
	"exchange" text NOT NULL,
	"account_name" text NOT NULL,
	"remark" text,
	"wrapped_key" "bytea",
	"api_key_enc" "bytea",
	"secret_key_enc" "bytea",
	"passphrase_enc" "bytea",
	"key_last4" text,
	"api_key_hash" text,
	"leverage" integer DEFAULT 10 NOT NULL,
	"frozen" boolean DEFAULT false NOT NULL,
	"frozen_reason" text,
	"key_check" jsonb,
	"bridge_token_hash" text,
	"mt5_login" text,
	"mt5_server" text,
	"bridge_seen_at" timestamp with time zone,
	"bridge_state" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unbound_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mt5_deals" ADD CONSTRAINT "mt5_deals_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robot_events" ADD CONSTRAINT "robot_events_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robot_fills" ADD CONSTRAINT "robot_fills_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robot_intents" ADD CONSTRAINT "robot_intents_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robots" ADD CONSTRAINT "robots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "robots" ADD CONSTRAINT "robots_account_id_trading_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trading_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD CONSTRAINT "trading_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mt5_deals_account_deal_key" ON "mt5_deals" USING btree ("account_id","deal");--> statement-breakpoint
CREATE INDEX "robot_events_robot_idx" ON "robot_events" USING btree ("robot_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "robot_fills_key" ON "robot_fills" USING btree ("robot_id","fill_key");--> statement-breakpoint
CREATE INDEX "robot_fills_robot_idx" ON "robot_fills" USING btree ("robot_id","filled_at");--> statement-breakpoint
CREATE UNIQUE INDEX "robot_intents_client_order_id_key" ON "robot_intents" USING btree ("robot_id","client_order_id");--> statement-breakpoint
CREATE INDEX "robot_intents_state_idx" ON "robot_intents" USING btree ("robot_id","state");--> statement-breakpoint
CREATE INDEX "robots_user_idx" ON "robots" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "robots_account_idx" ON "robots" USING btree ("account_id","status");--> statement-breakpoint
CREATE INDEX "robots_lease_idx" ON "robots" USING btree ("status","lease_until");--> statement-breakpoint
CREATE INDEX "trading_accounts_user_idx" ON "trading_accounts" USING btree ("user_id","market");--> statement-breakpoint
CREATE UNIQUE INDEX "trading_accounts_bridge_token_key" ON "trading_accounts" USING btree ("bridge_token_hash");