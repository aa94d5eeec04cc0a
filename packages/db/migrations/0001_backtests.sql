CREATE TABLE "backtest_results" (
	"backtest_id" bigint PRIMARY KEY NOT NULL,
	"equity" jsonb NOT NULL,
	"trades" jsonb NOT NULL,
	"monthly" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backtests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "backtests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"strategy" text NOT NULL,
	"data_source" text NOT NULL,
	"candle_source" text NOT NULL,
	"symbol" text NOT NULL,
	"interval" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"params" jsonb NOT NULL,
	"capital" numeric(24, 8) NOT NULL,
	"leverage" numeric(12, 4) NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone NOT NULL,
	"status_reason" text,
	"summary" jsonb,
	"job_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "candle_chunks" (
	"source" text NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"chunk_start" bigint NOT NULL,
	"first_time" bigint NOT NULL,
	"last_time" bigint NOT NULL,
	"count" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "candle_chunks_source_symbol_timeframe_chunk_start_pk" PRIMARY KEY("source","symbol","timeframe","chunk_start")
);
--> statement-breakpoint
CREATE TABLE "entitlement_grants" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "entitlement_grants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"market" text,
	"quantity" integer NOT NULL,
	"origin" text DEFAULT 'operator' NOT NULL,
	"note" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_imports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "market_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"from_ms" bigint,
	"to_ms" bigint,
	"cursor_ms" bigint,
	"origin" text,
	"rows" integer DEFAULT 0 NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommendations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recommendations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"strategy" text NOT NULL,
	"data_source" text NOT NULL,
	"candle_source" text NOT NULL,
	"symbol" text NOT NULL,
	"capital" numeric(24, 8) NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone NOT NULL,
	"fixed" jsonb NOT NULL,
	"budget" integer,
	"seed" integer DEFAULT 1 NOT NULL,
	"result" jsonb,
	"error" text,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "backtest_results" ADD CONSTRAINT "backtest_results_backtest_id_backtests_id_fk" FOREIGN KEY ("backtest_id") REFERENCES "public"."backtests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backtests" ADD CONSTRAINT "backtests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlement_grants" ADD CONSTRAINT "entitlement_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendations" ADD CONSTRAINT "recommendations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backtests_user_idx" ON "backtests" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "backtests_running_idx" ON "backtests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "entitlement_grants_user_idx" ON "entitlement_grants" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "market_imports_series_idx" ON "market_imports" USING btree ("source","symbol","timeframe","created_at");--> statement-breakpoint
CREATE INDEX "recommendations_user_idx" ON "recommendations" USING btree ("user_id","created_at");