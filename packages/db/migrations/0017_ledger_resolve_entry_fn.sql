-- Posting or voiding a hold in one statement, as ledger_post_entry (migration 0015) writes one: the
-- entry and its accounts are locked, checked and moved inside the database, so the ledger has one
-- way of locking accounts (in id order) and the locks are held for no client round trip. The rules
-- are those of apps/server/src/wallet/ledger.ts (postPending / voidPending), which calls this:
-- - the entry is locked first, then its accounts in id order;
-- - an entry already resolved with this key to this status: nothing is written (replayed = true);
-- - the key used for anything else: SQLSTATE LQ409, the message the key;
-- - an entry that is missing or no longer pending: SQLSTATE LQ410, the message its status.
-- Posting leaves each account's available (posted − pending_out) as it was: both fall by the held
-- amount. Voiding raises it. So neither needs a funds check; the accounts' CHECK constraints stay.
CREATE OR REPLACE FUNCTION ledger_resolve_entry(p_entry bigint, p_key text, p_to text)
RETURNS TABLE (entry_id bigint, entry_status text, replayed boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_status text;
  v_resolution_key text;
BEGIN
  IF p_to NOT IN ('posted', 'voided') THEN
    RAISE EXCEPTION 'a pending entry is resolved to posted or voided, not %', p_to;
  END IF;
  SELECT e.status, e.resolution_key INTO v_status, v_resolution_key FROM ledger_entries e WHERE e.id = p_entry FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'missing' USING ERRCODE = 'LQ410';
  END IF;
  IF v_status <> 'pending' THEN
    IF v_resolution_key = p_key AND v_status = p_to THEN
      RETURN QUERY SELECT p_entry, v_status, true;
      RETURN;
    END IF;
    IF v_resolution_key = p_key THEN
      RAISE EXCEPTION '%', p_key USING ERRCODE = 'LQ409';
    END IF;
    RAISE EXCEPTION '%', v_status USING ERRCODE = 'LQ410';
  END IF;
  IF EXISTS (SELECT 1 FROM ledger_entries e WHERE e.resolution_key = p_key) THEN
    RAISE EXCEPTION '%', p_key USING ERRCODE = 'LQ409';
  END IF;

  PERFORM 1 FROM ledger_accounts a WHERE a.id IN (SELECT l.account_id FROM ledger_lines l WHERE l.entry_id = p_entry)
   ORDER BY a.id FOR UPDATE;

  WITH moved AS (
    UPDATE ledger_accounts a
       SET posted = a.posted + CASE WHEN p_to = 'posted' THEN l.amount ELSE 0 END,
           pending_in = a.pending_in - CASE WHEN l.amount > 0 THEN l.amount ELSE 0 END,
           pending_out = a.pending_out - CASE WHEN l.amount < 0 THEN -l.amount ELSE 0 END
      FROM ledger_lines l
     WHERE l.entry_id = p_entry AND a.id = l.account_id
    RETURNING a.id, a.posted
  )
  UPDATE ledger_lines l SET balance_after = m.posted
    FROM moved m
   WHERE p_to = 'posted' AND l.entry_id = p_entry AND l.account_id = m.id;

  UPDATE ledger_entries e SET status = p_to, resolved_at = now(), resolution_key = p_key WHERE e.id = p_entry;
  RETURN QUERY SELECT p_entry, p_to, false;
END
$$;
