-- A purchase's ledger entry is the one keyed `benefit:<purchase id>` (unique index on the key): the
-- column that repeated it is gone, so the pay step's transaction ends with its ledger entry and
-- platform revenue, which every purchase locks, is held for no statement after it (issue 29).
ALTER TABLE "benefit_purchases" DROP COLUMN "entry_id";
