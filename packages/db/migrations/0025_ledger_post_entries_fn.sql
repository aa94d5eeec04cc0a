-- Many posted entries in one statement (issue 29, "how fast": a renewal pass over 100,000 packs in
-- under 30 s). ledger_post_entry per entry locks, updates and re-finds the same hot account (platform
-- revenue) once per entry; here every account moves once per batch. Same rules as ledger_post_entry
-- (migration 0015), applied to the batch as a whole:
-- - an entry whose key is already used writes nothing and answers the stored entry (replayed = true);
-- - accounts not there yet are created, then all the batch's accounts are locked in id order;
-- - a no-overdraft account whose posted − pending out would fall below zero at any line, in the
--   order given (entries, then their lines): SQLSTATE LQ402 and nothing of the batch is written;
-- - each line's balance_after is the account's posted balance once that line is posted, in order.
-- Entries are flat arrays (p_keys …), lines too, each line naming its entry by 1-based position.
CREATE OR REPLACE FUNCTION ledger_post_entries(
  p_keys text[], p_hashes text[], p_kinds text[], p_users bigint[], p_memos text[], p_metas jsonb[],
  p_line_entries integer[], p_codes text[], p_line_kinds text[], p_owners bigint[], p_amounts bigint[]
) RETURNS TABLE (n integer, entry_id bigint, entry_hash text, replayed boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_fresh_ids bigint[];
  v_fresh_ns integer[];
  v_short record;
BEGIN
  INSERT INTO ledger_accounts (code, kind, user_id, no_overdraft)
  SELECT DISTINCT ON (l.code) l.code, l.kind, l.owner, l.owner IS NOT NULL
    FROM unnest(p_codes, p_line_kinds, p_owners) AS l(code, kind, owner)
   WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.code = l.code)
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM ledger_accounts a WHERE a.code = ANY (p_codes) ORDER BY a.id FOR UPDATE;

  WITH input AS (
    SELECT e.key, e.hash, e.kind, e.owner, e.memo, e.meta, e.n::integer AS n
      FROM unnest(p_keys, p_hashes, p_kinds, p_users, p_memos, p_metas) WITH ORDINALITY AS e(key, hash, kind, owner, memo, meta, n)
  ), written AS (
    INSERT INTO ledger_entries (idempotency_key, request_hash, kind, status, user_id, memo, meta)
    SELECT i.key, i.hash, i.kind, 'posted', i.owner, i.memo, i.meta FROM input i ORDER BY i.n
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id, idempotency_key
  )
  SELECT array_agg(w.id ORDER BY i.n), array_agg(i.n ORDER BY i.n) INTO v_fresh_ids, v_fresh_ns
    FROM written w JOIN input i ON i.key = w.idempotency_key;

  IF v_fresh_ids IS NOT NULL THEN
    -- Funds, line by line in order, on the locked accounts (before anything moves).
    WITH fresh AS (SELECT f.id, f.n FROM unnest(v_fresh_ids, v_fresh_ns) AS f(id, n)),
    lines AS (
      SELECT l.code, l.amount, l.entry_n, l.k, a.no_overdraft, a.posted - a.pending_out AS available,
             sum(l.amount) OVER (PARTITION BY a.id ORDER BY l.entry_n, l.k) AS running
        FROM unnest(p_line_entries, p_codes, p_amounts) WITH ORDINALITY AS l(entry_n, code, amount, k)
        JOIN fresh f ON f.n = l.entry_n
        JOIN ledger_accounts a ON a.code = l.code
    )
    SELECT lines.code, lines.available + lines.running - lines.amount AS available, -lines.amount AS needed INTO v_short
      FROM lines
     WHERE lines.no_overdraft AND lines.amount < 0 AND lines.available + lines.running < 0
     ORDER BY lines.entry_n, lines.k LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION '%', v_short.code USING ERRCODE = 'LQ402', DETAIL = v_short.available::text || ' ' || v_short.needed::text;
    END IF;

    -- Every statement of one WITH sees the balances from before the update: the lines' balances
    -- after are those plus the running sums.
    WITH fresh AS (SELECT f.id, f.n FROM unnest(v_fresh_ids, v_fresh_ns) AS f(id, n)),
    lines AS (
      SELECT f.id AS entry_id, a.id AS account_id, l.amount, l.owner, p_kinds[l.entry_n] AS kind, l.entry_n, l.k,
             a.posted + sum(l.amount) OVER (PARTITION BY a.id ORDER BY l.entry_n, l.k) AS balance_after
        FROM unnest(p_line_entries, p_codes, p_owners, p_amounts) WITH ORDINALITY AS l(entry_n, code, owner, amount, k)
        JOIN fresh f ON f.n = l.entry_n
        JOIN ledger_accounts a ON a.code = l.code
    ), written AS (
      INSERT INTO ledger_lines (entry_id, account_id, amount, balance_after, user_id, kind)
      SELECT lines.entry_id, lines.account_id, lines.amount, lines.balance_after, lines.owner, lines.kind
        FROM lines ORDER BY lines.entry_n, lines.k
    )
    UPDATE ledger_accounts a SET posted = a.posted + s.total
      FROM (SELECT lines.account_id, sum(lines.amount) AS total FROM lines GROUP BY lines.account_id) s
     WHERE a.id = s.account_id;
  END IF;

  RETURN QUERY
    SELECT i.n::integer, e.id, e.request_hash, NOT (e.id = ANY (coalesce(v_fresh_ids, '{}')))
      FROM unnest(p_keys) WITH ORDINALITY AS i(key, n)
      JOIN ledger_entries e ON e.idempotency_key = i.key
     ORDER BY i.n;
END
$$;
