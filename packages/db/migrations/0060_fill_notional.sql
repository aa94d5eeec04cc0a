-- Volume at its true value (issue 53 item 12): a fill's quantity is in order units — contracts of
-- 0.01 BTC, 0.1 ETH …, lots of 100,000 EUR or 100 oz of gold — so |qty × price| overstated a
-- crypto trade up to 100-fold and understated a forex one 100,000-fold. Each fill now keeps its
-- value in the account currency (USDT / USD) as the runner books it (engine `accountNotionalOf`),
-- and VIP volume, rankings and team volume add these. Fills before: valued here with the catalogue's
-- contract sizes (packages/engine/src/instruments.ts; USDJPY's quote is JPY: ÷ price).
ALTER TABLE "robot_fills" ADD COLUMN "notional" numeric(30, 8);--> statement-breakpoint
UPDATE "robot_fills" f SET "notional" = abs(f."qty") * f."price" * coalesce(c."size", 1) / (CASE WHEN c."quote_is_account" = false THEN f."price" ELSE 1 END)
  FROM "robots" r LEFT JOIN (VALUES
    ('BTCUSDT', 0.01, true), ('ETHUSDT', 0.1, true), ('SOLUSDT', 1, true), ('BNBUSDT', 0.01, true),
    ('XRPUSDT', 100, true), ('DOGEUSDT', 1000, true),
    ('EURUSD', 100000, true), ('GBPUSD', 100000, true), ('USDJPY', 100000, false), ('XAUUSD', 100, true)
  ) AS c("symbol", "size", "quote_is_account") ON c."symbol" = r."symbol"
 WHERE r."id" = f."robot_id";--> statement-breakpoint
ALTER TABLE "robot_fills" ALTER COLUMN "notional" SET NOT NULL;
