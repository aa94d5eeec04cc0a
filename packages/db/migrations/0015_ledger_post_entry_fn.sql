-- One money movement in one round trip (issue 16, "how fast"): the entry, the account locks (in id
-- order, as every writer takes them), the funds check, the lines and the balances, inside the
-- database. Before, a movement held its accounts' locks across three client round trips (lock,
-- lines + balances, commit); on one hot account that capped the rate at about 1,400 a second.
-- The rules are those of apps/server/src/wallet/ledger.ts (postEntry), which calls this:
-- - a key already used: nothing is written, the stored entry is answered (replayed = true), and the
--   caller compares its request hash;
-- - an account that does not exist yet is created (a user's wallet: no overdraft; a platform
--   account, owner null: may go below zero);
-- - a no-overdraft account whose posted − pending out would fall below zero: SQLSTATE LQ402, the
--   message is the account code, the detail "available needed" in micro-units.
CREATE OR REPLACE FUNCTION ledger_post_entry(
  p_key text, p_hash text, p_kind text, p_pending boolean, p_user bigint, p_memo text, p_meta jsonb,
  p_codes text[], p_kinds text[], p_owners bigint[], p_amounts bigint[]
) RETURNS TABLE (entry_id bigint, entry_status text, entry_hash text, replayed boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_id bigint;
  v_locked integer;
  v_round integer;
  v_acc record;
  v_short_code text; -- the first account without the funds, with what it has and what it needs
  v_short_available bigint;
  v_short_needed bigint;
BEGIN
  INSERT INTO ledger_entries (idempotency_key, request_hash, kind, status, user_id, memo, meta)
  VALUES (p_key, p_hash, p_kind, CASE WHEN p_pending THEN 'pending' ELSE 'posted' END, p_user, p_memo, p_meta)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    RETURN QUERY SELECT e.id, e.status, e.request_hash, true FROM ledger_entries e WHERE e.idempotency_key = p_key;
    RETURN;
  END IF;

  -- Lock in id order and check funds on the locked rows; accounts not there yet (a user's first
  -- movement) are created, then everything is locked again.
  FOR v_round IN 1..2 LOOP
    v_locked := 0;
    v_short_code := NULL;
    FOR v_acc IN
      SELECT a.code, a.no_overdraft, a.posted - a.pending_out AS available, l.amount
        FROM ledger_accounts a JOIN unnest(p_codes, p_amounts) AS l(code, amount) ON l.code = a.code
       ORDER BY a.id FOR UPDATE OF a
    LOOP
      v_locked := v_locked + 1;
      IF v_short_code IS NULL AND v_acc.amount < 0 AND v_acc.no_overdraft AND v_acc.available + v_acc.amount < 0 THEN
        v_short_code := v_acc.code;
        v_short_available := v_acc.available;
        v_short_needed := -v_acc.amount;
      END IF;
    END LOOP;
    EXIT WHEN v_locked = cardinality(p_codes);
    IF v_round = 2 THEN
      RAISE EXCEPTION 'ledger accounts missing for entry %', p_key;
    END IF;
    -- Only the missing ones: an insert that conflicts would still take a number from the sequence.
    INSERT INTO ledger_accounts (code, kind, user_id, no_overdraft)
    SELECT l.code, l.kind, l.owner, l.owner IS NOT NULL
      FROM unnest(p_codes, p_kinds, p_owners) AS l(code, kind, owner)
     WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.code = l.code)
    ON CONFLICT DO NOTHING; -- no target: a concurrent insert may hit (user_id, kind) before code
  END LOOP;
  IF v_short_code IS NOT NULL THEN
    RAISE EXCEPTION '%', v_short_code USING ERRCODE = 'LQ402', DETAIL = v_short_available::text || ' ' || v_short_needed::text;
  END IF;

  WITH moved AS (
    UPDATE ledger_accounts a
       SET posted = a.posted + CASE WHEN p_pending THEN 0 ELSE l.amount END,
           pending_in = a.pending_in + CASE WHEN p_pending AND l.amount > 0 THEN l.amount ELSE 0 END,
           pending_out = a.pending_out + CASE WHEN p_pending AND l.amount < 0 THEN -l.amount ELSE 0 END
      FROM unnest(p_codes, p_amounts) AS l(code, amount)
     WHERE a.code = l.code
    RETURNING a.id, a.code, a.posted
  )
  INSERT INTO ledger_lines (entry_id, account_id, amount, balance_after, user_id, kind)
  SELECT v_id, m.id, l.amount, CASE WHEN p_pending THEN NULL ELSE m.posted END, l.owner, p_kind
    FROM unnest(p_codes, p_owners, p_amounts) WITH ORDINALITY AS l(code, owner, amount, n)
    JOIN moved m ON m.code = l.code
   ORDER BY l.n;

  RETURN QUERY SELECT v_id, CASE WHEN p_pending THEN 'pending' ELSE 'posted' END, p_hash, false;
END
$$;
