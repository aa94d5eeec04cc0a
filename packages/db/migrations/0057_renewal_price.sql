-- Renewals as the agreement says (issue 53 item 5): a pack renews for one period (30 days) at the
-- price per seat or slot and month shown when auto-renew was switched on (or the pack bought with
-- it), kept here; a higher price reaches a renewal only when the owner was told at least 7 days
-- before it (renew_price_next from renew_price_next_from; notification pack.priceChange).
ALTER TABLE "benefit_purchases" ADD COLUMN "renew_price" bigint;--> statement-breakpoint
ALTER TABLE "benefit_purchases" ADD COLUMN "renew_price_next" bigint;--> statement-breakpoint
ALTER TABLE "benefit_purchases" ADD COLUMN "renew_price_next_from" timestamp with time zone;--> statement-breakpoint
-- Packs from before: the price per unit and month they were bought at.
UPDATE "benefit_purchases" SET "renew_price" = "amount" / ("quantity" * "months") WHERE "item" <> 'unlock';
