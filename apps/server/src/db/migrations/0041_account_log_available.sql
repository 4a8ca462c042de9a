-- What a reservation leaves a user free to spend: a two-phase transfer (a withdrawal's amount
-- or fee held, its payout, its refund) records the debit account's total held after it, so the
-- account log can say the available balance (posted balance minus what is held) after every
-- line, reading one index entry per line at any depth. Posted transfers leave the held total
-- as it was and record nothing: the hot path writes what it wrote before.
ALTER TABLE ledger_transfers ADD COLUMN debit_pending_after numeric(48, 18);

-- The two-phase transfers written so far, each with the held total after it: per debit account
-- in transfer id order (the order the account moved, ids being allocated under its lock),
-- + a reservation's amount, - the reservation a payout or a refund resolves.
ALTER TABLE ledger_transfers DISABLE TRIGGER ledger_transfers_append_only;
UPDATE ledger_transfers t SET debit_pending_after = h.after
  FROM (SELECT x.id, sum(CASE WHEN x.kind = 'pending' THEN x.amount ELSE -p.amount END)
                 OVER (PARTITION BY x.debit_account_id ORDER BY x.id) AS after
          FROM ledger_transfers x
          LEFT JOIN ledger_transfers p ON p.id = x.pending_id
         WHERE x.kind <> 'posted') h
 WHERE t.id = h.id;
ALTER TABLE ledger_transfers ENABLE TRIGGER ledger_transfers_append_only;

CREATE INDEX ledger_transfers_held_idx ON ledger_transfers (debit_account_id, id DESC)
  WHERE debit_pending_after IS NOT NULL;

-- ledger_apply as before, writing the held total after each two-phase leg.
CREATE OR REPLACE FUNCTION ledger_apply(
  p_key text, p_hash bytea, p_kind text[], p_debit bigint[], p_credit bigint[], p_amount numeric[],
  p_log smallint[], p_pending bigint[], p_ref text[], OUT replayed boolean, OUT transfers bigint[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  n         int := coalesce(cardinality(p_kind), 0);
  v_hash    bytea;
  v_ids     bigint[];
  v_acc     bigint[];
  v_cur     text[];
  v_user    bigint[];
  v_bal     numeric[];
  v_dp      numeric[];
  v_cp      numeric[];
  v_ver     bigint[];
  v_dirty   boolean[];
  p         record;
  d         int;
  c         int;
  v_amount  numeric;
  v_release numeric;
  t_debit   bigint[] := '{}';
  t_credit  bigint[] := '{}';
  t_cur     text[] := '{}';
  t_amount  numeric[] := '{}';
  t_log     smallint[] := '{}';
  t_pending bigint[] := '{}';
  t_dp      numeric[] := '{}';
  e_leg     int[] := '{}';
  e_account bigint[] := '{}';
  e_user    bigint[] := '{}';
  e_amount  numeric[] := '{}';
  e_after   numeric[] := '{}';
  e_version bigint[] := '{}';
BEGIN
  SELECT request_hash INTO v_hash FROM ledger_transfers WHERE request_key = p_key AND leg = 0;
  IF FOUND THEN
    SELECT * INTO replayed, transfers FROM ledger_replay(p_key, p_hash, v_hash);
    RETURN;
  END IF;
  IF n = 0 OR cardinality(p_debit) <> n OR cardinality(p_credit) <> n OR cardinality(p_amount) <> n
     OR cardinality(p_log) <> n OR cardinality(p_pending) <> n OR cardinality(p_ref) <> n THEN
    RAISE EXCEPTION 'legs of unequal length' USING ERRCODE = 'HL004';
  END IF;

  -- Every account touched, pending transfers' included, locked and loaded: users' accounts
  -- first, then the hot platform accounts, each group in id order. One global order means no
  -- deadlocks; taking the hot rows last means holding them for the shortest time.
  v_ids := p_debit || p_credit;
  IF EXISTS (SELECT 1 FROM unnest(p_pending) x WHERE x IS NOT NULL) THEN
    v_ids := v_ids || ARRAY(SELECT unnest(ARRAY[t.debit_account_id, t.credit_account_id])
                            FROM ledger_transfers t WHERE t.id = ANY (p_pending));
  END IF;
  SELECT array_agg(id ORDER BY id), array_agg(currency ORDER BY id), array_agg(user_id ORDER BY id),
         array_agg(balance ORDER BY id), array_agg(debits_pending ORDER BY id),
         array_agg(credits_pending ORDER BY id), array_agg(version ORDER BY id)
    INTO v_acc, v_cur, v_user, v_bal, v_dp, v_cp, v_ver
    FROM (SELECT * FROM ledger_accounts WHERE id = ANY (v_ids)
          ORDER BY user_id IS NULL, id FOR NO KEY UPDATE) locked;
  v_dirty := array_fill(false, ARRAY[coalesce(cardinality(v_acc), 0)]);
  -- A request with this key that held these locks before us (a double tap) has committed.
  SELECT request_hash INTO v_hash FROM ledger_transfers WHERE request_key = p_key AND leg = 0;
  IF FOUND THEN
    SELECT * INTO replayed, transfers FROM ledger_replay(p_key, p_hash, v_hash);
    RETURN;
  END IF;

  FOR i IN 1 .. n LOOP
    v_release := 0;
    IF p_kind[i] IN ('posted', 'pending') THEN
      d := array_position(v_acc, p_debit[i]);
      c := array_position(v_acc, p_credit[i]);
      v_amount := p_amount[i];
      IF d IS NULL OR c IS NULL OR d = c OR v_cur[d] <> v_cur[c] OR p_log[i] IS NULL
         OR v_amount IS NULL OR v_amount <= 0 OR v_amount <> round(v_amount, 18) THEN
        RAISE EXCEPTION 'malformed leg %', i USING ERRCODE = 'HL004';
      END IF;
      t_log := t_log || p_log[i];
      t_pending := t_pending || NULL::bigint;
    ELSIF p_kind[i] IN ('post_pending', 'void_pending') THEN
      SELECT * INTO p FROM ledger_transfers WHERE id = p_pending[i] AND kind = 'pending';
      IF NOT FOUND OR EXISTS (SELECT 1 FROM ledger_transfers WHERE pending_id = p_pending[i])
         OR p_pending[i] = ANY (t_pending) THEN
        RAISE EXCEPTION 'pending transfer % missing or already resolved', p_pending[i] USING ERRCODE = 'HL003';
      END IF;
      d := array_position(v_acc, p.debit_account_id);
      c := array_position(v_acc, p.credit_account_id);
      v_release := p.amount;
      v_amount := CASE WHEN p_kind[i] = 'void_pending' THEN p.amount ELSE coalesce(p_amount[i], p.amount) END;
      IF p_kind[i] = 'post_pending' AND (v_amount <= 0 OR v_amount > p.amount OR v_amount <> round(v_amount, 18)) THEN
        RAISE EXCEPTION 'post amount % outside (0, %]', v_amount, p.amount USING ERRCODE = 'HL004';
      END IF;
      t_log := t_log || p.log_type;
      t_pending := t_pending || p.id;
    ELSE
      RAISE EXCEPTION 'unknown leg kind %', p_kind[i] USING ERRCODE = 'HL004';
    END IF;

    t_debit := t_debit || v_acc[d];
    t_credit := t_credit || v_acc[c];
    t_cur := t_cur || v_cur[d];
    t_amount := t_amount || v_amount;
    v_dirty[d] := true;
    v_dirty[c] := true;

    IF p_kind[i] = 'pending' THEN
      IF v_user[d] IS NOT NULL AND v_bal[d] - v_dp[d] < v_amount THEN
        RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'HL001', DETAIL = v_acc[d]::text;
      END IF;
      v_dp[d] := v_dp[d] + v_amount;
      v_cp[c] := v_cp[c] + v_amount;
    ELSIF p_kind[i] = 'void_pending' THEN
      v_dp[d] := v_dp[d] - v_release;
      v_cp[c] := v_cp[c] - v_release;
    ELSE
      v_dp[d] := v_dp[d] - v_release;
      v_cp[c] := v_cp[c] - v_release;
      IF v_user[d] IS NOT NULL AND v_bal[d] - v_dp[d] < v_amount THEN
        RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'HL001', DETAIL = v_acc[d]::text;
      END IF;
      v_bal[d] := v_bal[d] - v_amount;
      v_ver[d] := v_ver[d] + 1;
      v_bal[c] := v_bal[c] + v_amount;
      v_ver[c] := v_ver[c] + 1;
      e_leg := e_leg || ARRAY[i, i];
      e_account := e_account || ARRAY[v_acc[d], v_acc[c]];
      e_user := e_user || ARRAY[v_user[d], v_user[c]];
      e_amount := e_amount || ARRAY[-v_amount, v_amount];
      e_after := e_after || ARRAY[v_bal[d], v_bal[c]];
      e_version := e_version || ARRAY[v_ver[d], v_ver[c]];
    END IF;
    t_dp := t_dp || CASE WHEN p_kind[i] <> 'posted' THEN v_dp[d] END;
  END LOOP;

  WITH inserted AS (
    INSERT INTO ledger_transfers (request_key, leg, request_hash, kind, debit_account_id, credit_account_id,
                                  currency, amount, log_type, pending_id, reference, debit_pending_after)
    SELECT p_key, (u.n - 1)::smallint, CASE WHEN u.n = 1 THEN p_hash END, u.kind, u.debit, u.credit,
           u.cur, u.amount, u.log, u.pending, u.ref, u.dp
    FROM unnest(p_kind, t_debit, t_credit, t_cur, t_amount, t_log, t_pending, p_ref, t_dp)
         WITH ORDINALITY AS u (kind, debit, credit, cur, amount, log, pending, ref, dp, n)
    RETURNING id, leg
  )
  SELECT array_agg(id ORDER BY leg) INTO transfers FROM inserted;

  INSERT INTO ledger_entries (transfer_id, account_id, user_id, amount, balance_after, account_version)
  SELECT transfers[u.leg], u.account, u.usr, u.amount, u.after, u.version
  FROM unnest(e_leg, e_account, e_user, e_amount, e_after, e_version) AS u (leg, account, usr, amount, after, version);

  FOR i IN 1 .. cardinality(v_acc) LOOP
    CONTINUE WHEN NOT v_dirty[i];
    UPDATE ledger_accounts SET balance = v_bal[i], debits_pending = v_dp[i], credits_pending = v_cp[i], version = v_ver[i]
     WHERE id = v_acc[i];
  END LOOP;
  replayed := false;
END $$;
