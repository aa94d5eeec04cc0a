-- The drift monitor's shadow backtest (issue 33, slice 1): for each robot, the trades a backtest of
-- the same strategy, parameters and instrument makes over the candles the robot saw, from its first
-- candle. `cursor` is the open time of the last 1m candle the shadow stepped: each check goes on
-- from there. `spec` is what the shadow was built from; a robot whose spec changed starts again.
-- A shadow fill carries the client order id the robot gives the same intent (the leg it pairs with).
CREATE TABLE "robot_shadows" (
	"robot_id" bigint PRIMARY KEY NOT NULL,
	"spec" text NOT NULL,
	"from_ms" bigint NOT NULL,
	"cursor" bigint NOT NULL,
	"fills" integer DEFAULT 0 NOT NULL,
	"balance" double precision NOT NULL,
	"equity" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "robot_shadows" ADD CONSTRAINT "robot_shadows_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "robot_shadow_fills" (
	"robot_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"client_order_id" text NOT NULL,
	"tag" text NOT NULL,
	"ticket" text NOT NULL,
	"action" text NOT NULL,
	"side" text NOT NULL,
	"qty" double precision NOT NULL,
	"price" double precision NOT NULL,
	"fee" double precision NOT NULL,
	"pnl" double precision NOT NULL,
	"maker" boolean NOT NULL,
	"reason" text,
	"filled_at" bigint NOT NULL,
	CONSTRAINT "robot_shadow_fills_pkey" PRIMARY KEY("robot_id","seq")
);
--> statement-breakpoint
ALTER TABLE "robot_shadow_fills" ADD CONSTRAINT "robot_shadow_fills_robot_id_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."robots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "robot_shadow_fills_order_idx" ON "robot_shadow_fills" USING btree ("robot_id","client_order_id");
