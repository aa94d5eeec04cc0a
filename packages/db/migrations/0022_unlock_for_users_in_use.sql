-- The benefits catalogue replaces the free seat and slot: users who hold one in use now (a robot
-- running, paused or stopping, or a backtest running) keep their basic rights, as an operator grant
-- with its reason. Once per user (a grant already there is left alone).
INSERT INTO "entitlement_grants" ("user_id", "kind", "market", "quantity", "origin", "note")
SELECT u."id", 'unlock', NULL, 1, 'operator', 'basic rights kept: a seat or slot in use when benefits started to be sold (migration 0022)'
  FROM "users" u
 WHERE (EXISTS (SELECT 1 FROM "robots" r WHERE r."user_id" = u."id" AND r."status" IN ('running', 'paused', 'stopping'))
     OR EXISTS (SELECT 1 FROM "backtests" b WHERE b."user_id" = u."id" AND b."status" = 1 AND b."deleted_at" IS NULL))
   AND NOT EXISTS (SELECT 1 FROM "entitlement_grants" g WHERE g."user_id" = u."id" AND g."kind" = 'unlock');
