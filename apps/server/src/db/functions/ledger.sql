-- The ledger's functions as they are now: the one place to read and change them. The migrator
-- applies this file after the migrations (CREATE OR REPLACE, in one transaction, again whenever
-- its content changes), so a change here is a change of the running database. The migrations
-- hold the tables; git holds the functions' history. `db/functions.test.ts` checks that no
-- migration defines them any more and that this file defines every ledger function.

-- Transfers and entries are never edited or deleted (the trigger of both tables; 0002 made it
-- first, for its triggers).
CREATE OR REPLACE FUNCTION ledger_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'HL009';
END $function$
;

-- The answer to a key seen before: its first result, or HL002 when the content differs.
CREATE OR REPLACE FUNCTION ledger_replay(p_key text, p_hash bytea, p_stored bytea, OUT replayed boolean, OUT transfers bigint[])
 RETURNS record
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF p_stored IS DISTINCT FROM p_hash THEN
    RAISE EXCEPTION 'idempotency key % was used for another request', p_key USING ERRCODE = 'HL002';
  END IF;
  replayed := true;
  SELECT array_agg(id ORDER BY leg) INTO transfers FROM ledger_transfers WHERE request_key = p_key;
END $function$
;

-- Applies the legs of one request, all or nothing, in one round trip. Leg i is
--   kind[i] 'posted' | 'pending': debit[i] → credit[i], amount[i], log_type[i], ref[i]
--   kind[i] 'post_pending' (amount[i] or the whole reservation) | 'void_pending': pending[i]
-- Errors: HL001 insufficient funds (DETAIL = account id), HL002 same key with another request,
--         HL003 pending transfer missing or already resolved, HL004 malformed leg.
-- The accounts are locked first, the legs are worked out in memory, then the transfers, the
-- entries and each account's new state are written.
-- Two first-time requests with one key and the same accounts queue on the locks and the later
-- one replays; with different accounts they meet at the unique (request_key, leg) index: the
-- later one fails with 23505 before anything moved, and the caller asks again for the replay.
-- A two-phase leg records the debit account's held total after it (debit_pending_after).
CREATE OR REPLACE FUNCTION ledger_apply(p_key text, p_hash bytea, p_kind text[], p_debit bigint[], p_credit bigint[], p_amount numeric[], p_log smallint[], p_pending bigint[], p_ref text[], OUT replayed boolean, OUT transfers bigint[])
 RETURNS record
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
END $function$
;

-- Requests whose legs are all posted at once (transfers, fees, credits, rewards), under the
-- same rules as ledger_apply. Leg i moves amount[i] from debit[i] to credit[i] with log_type[i]
-- and ref[i]. Worked out leg by leg in PL/pgSQL (a set-based statement's windows, sorts and
-- aggregates cost more than two or three legs): lock and read the accounts (in ledger_apply's
-- order), check the key once, after the locks (a repeated request, rare, waits for the locks as
-- a first one would, and every first one saves a lookup), write.
-- Errors: HL004 malformed leg (every leg checked before any is applied), HL001 insufficient
-- funds (DETAIL = the lowest account id that would go short), HL002 a used key with another
-- request.
CREATE OR REPLACE FUNCTION ledger_post(p_key text, p_hash bytea, p_debit bigint[], p_credit bigint[], p_amount numeric[], p_log smallint[], p_ref text[], OUT replayed boolean, OUT transfers bigint[])
 RETURNS record
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  n         int := coalesce(cardinality(p_debit), 0);
  v_hash    bytea;
  v_acc     bigint[];
  v_user    bigint[];
  v_cur     text[];
  v_bal     numeric[];
  v_dp      numeric[];
  v_ver     bigint[];
  v_short   bigint;
  d         int;
  c         int;
  a         numeric;
  t_cur     text[] := '{}';
  v_ids     bigint[] := '{}';
  e_transfer     bigint[] := '{}';
  e_account bigint[] := '{}';
  e_user    bigint[] := '{}';
  e_amount  numeric[] := '{}';
  e_after   numeric[] := '{}';
  e_version bigint[] := '{}';
BEGIN
  IF n = 0 OR cardinality(p_credit) IS DISTINCT FROM n OR cardinality(p_amount) IS DISTINCT FROM n
     OR cardinality(p_log) IS DISTINCT FROM n OR cardinality(p_ref) IS DISTINCT FROM n THEN
    RAISE EXCEPTION 'legs of unequal length' USING ERRCODE = 'HL004';
  END IF;

  -- Every account the legs name, locked (users' first, then platform, each in id order) and read;
  -- the arrays are filled from the same rows, so they stay aligned whatever order the rows come.
  SELECT array_agg(id), array_agg(user_id), array_agg(currency), array_agg(balance),
         array_agg(debits_pending), array_agg(version)
    INTO v_acc, v_user, v_cur, v_bal, v_dp, v_ver
    FROM (SELECT id, user_id, currency, balance, debits_pending, version FROM ledger_accounts
           WHERE id = ANY (p_debit || p_credit) ORDER BY user_id IS NULL, id FOR NO KEY UPDATE) locked;

  -- A request with this key that held these locks before us (a double tap) has committed; a
  -- repeated request waits for the locks like any other and is answered from the first time.
  SELECT request_hash INTO v_hash FROM ledger_transfers WHERE request_key = p_key AND leg = 0;
  IF FOUND THEN
    SELECT * INTO replayed, transfers FROM ledger_replay(p_key, p_hash, v_hash);
    RETURN;
  END IF;

  -- Every leg is checked before any is applied, so a malformed leg is named before a shortfall.
  FOR i IN 1 .. n LOOP
    d := array_position(v_acc, p_debit[i]);
    c := array_position(v_acc, p_credit[i]);
    a := p_amount[i];
    IF d IS NULL OR c IS NULL OR d = c OR v_cur[d] <> v_cur[c] OR p_log[i] IS NULL
       OR a IS NULL OR a <= 0 OR a <> round(a, 18) THEN
      RAISE EXCEPTION 'malformed leg' USING ERRCODE = 'HL004';
    END IF;
  END LOOP;
  -- The legs in order: each side's entry with the account's balance and version after it, and
  -- the transfer ids drawn under the locks (so an account's transfers are in the order it moved).
  FOR i IN 1 .. n LOOP
    d := array_position(v_acc, p_debit[i]);
    c := array_position(v_acc, p_credit[i]);
    a := p_amount[i];
    v_bal[d] := v_bal[d] - a;
    v_ver[d] := v_ver[d] + 1;
    IF v_user[d] IS NOT NULL AND v_bal[d] - v_dp[d] < 0 AND (v_short IS NULL OR v_acc[d] < v_short) THEN
      v_short := v_acc[d];
    END IF;
    v_bal[c] := v_bal[c] + a;
    v_ver[c] := v_ver[c] + 1;
    t_cur[i] := v_cur[d];
    v_ids[i] := nextval('ledger_transfers_id_seq');
    e_transfer := e_transfer || v_ids[i] || v_ids[i];
    e_account := e_account || v_acc[d] || v_acc[c];
    e_user := e_user || v_user[d] || v_user[c];
    e_amount := e_amount || -a || a;
    e_after := e_after || v_bal[d] || v_bal[c];
    e_version := e_version || v_ver[d] || v_ver[c];
  END LOOP;
  IF v_short IS NOT NULL THEN
    RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'HL001', DETAIL = v_short::text;
  END IF;

  -- The transfers, their entries and the accounts' new state, in one statement.
  WITH t AS (
    INSERT INTO ledger_transfers (id, request_key, leg, request_hash, kind, debit_account_id, credit_account_id,
                                  currency, amount, log_type, reference)
    OVERRIDING SYSTEM VALUE
    SELECT u.id, p_key, (u.n - 1)::smallint, CASE WHEN u.n = 1 THEN p_hash END, 'posted', u.debit, u.credit,
           u.cur, u.amount, u.log, u.ref
      FROM unnest(v_ids, p_debit, p_credit, t_cur, p_amount, p_log, p_ref)
           WITH ORDINALITY AS u (id, debit, credit, cur, amount, log, ref, n)
  ), e AS (
    INSERT INTO ledger_entries (transfer_id, account_id, user_id, amount, balance_after, account_version)
    SELECT u.transfer, u.account, u.usr, u.amount, u.after, u.version
      FROM unnest(e_transfer, e_account, e_user, e_amount, e_after, e_version) AS u (transfer, account, usr, amount, after, version)
  )
  UPDATE ledger_accounts x SET balance = u.bal, version = u.ver
    FROM unnest(v_acc, v_bal, v_ver) AS u (account, bal, ver)
   WHERE x.id = u.account;
  transfers := v_ids;
  replayed := false;
END $function$
;

-- Raises a ledger error from inside a statement (a CASE branch), so a set-based statement can
-- refuse a request with the same codes as the rest of the ledger.
CREATE OR REPLACE FUNCTION ledger_fail(p_code text, p_message text, p_detail text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '%', p_message USING ERRCODE = p_code, DETAIL = coalesce(p_detail, '');
END $function$
;

-- Many requests whose legs all post at once, in one round trip and one transaction: what a busy
-- server sends when requests arrive faster than single ones come back. The work of starting the
-- statements is shared by every request of the call.
-- Request r has key p_keys[r] and request hash p_hashes[r]; leg i belongs to request p_req[i],
-- is that request's leg number p_leg[i] (0, 1, ...) and moves p_amount[i] from p_debit[i] to
-- p_credit[i] with p_log[i] and p_ref[i]. Legs are applied in (request, leg) order, so each entry's
-- balance after is what the requests applied one after another would have written.
-- Answers one row per request: replayed (the key was used before: conflict when with another
-- hash), and its transfer ids in leg order.
-- The accounts are locked first, in ledger_apply's order; keys are checked after the locks, so a
-- request racing one with the same key and accounts replays it. Any refusal (HL001 insufficient
-- funds or the accounts' own non-negative check, HL004 malformed leg, a key raced on other
-- accounts) fails the whole call and nothing moves: the caller then sends the requests again in
-- smaller calls, down to one by one, to get each its own answer.
CREATE OR REPLACE FUNCTION ledger_post_many(p_keys text[], p_hashes bytea[], p_req integer[], p_leg smallint[], p_debit bigint[], p_credit bigint[], p_amount numeric[], p_log smallint[], p_ref text[])
 RETURNS TABLE(req integer, replayed boolean, conflict boolean, transfers bigint[])
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_done int[];
BEGIN
  IF coalesce(cardinality(p_keys), 0) = 0 OR cardinality(p_hashes) IS DISTINCT FROM cardinality(p_keys)
     OR coalesce(cardinality(p_req), 0) = 0 OR cardinality(p_leg) IS DISTINCT FROM cardinality(p_req)
     OR cardinality(p_debit) IS DISTINCT FROM cardinality(p_req)
     OR cardinality(p_credit) IS DISTINCT FROM cardinality(p_req)
     OR cardinality(p_amount) IS DISTINCT FROM cardinality(p_req)
     OR cardinality(p_log) IS DISTINCT FROM cardinality(p_req)
     OR cardinality(p_ref) IS DISTINCT FROM cardinality(p_req) THEN
    RAISE EXCEPTION 'legs of unequal length' USING ERRCODE = 'HL004';
  END IF;

  PERFORM FROM (SELECT id FROM ledger_accounts WHERE id = ANY (p_debit || p_credit)
                 ORDER BY user_id IS NULL, id FOR NO KEY UPDATE) locked;

  -- Requests whose key is already used are answered from the first time and left out.
  SELECT array_agg(array_position(p_keys, t.request_key)) INTO v_done
    FROM ledger_transfers t WHERE t.request_key = ANY (p_keys) AND t.leg = 0;
  IF v_done IS NOT NULL THEN
    RETURN QUERY
      SELECT array_position(p_keys, t.request_key), true,
             t.request_hash IS DISTINCT FROM p_hashes[array_position(p_keys, t.request_key)],
             (SELECT array_agg(x.id ORDER BY x.leg) FROM ledger_transfers x WHERE x.request_key = t.request_key)
        FROM ledger_transfers t WHERE t.request_key = ANY (p_keys) AND t.leg = 0;
  END IF;

  -- g: the legs still to apply, each with its transfer id; s: both sides of each leg; moved: the
  -- accounts' new state; run: each side's entry, its balance after worked back from the account's
  -- new balance minus the sides that come after it.
  RETURN QUERY
  WITH g AS MATERIALIZED (
    SELECT v.req, v.leg, v.debit, v.credit, v.amount, v.log, v.ref, nextval('ledger_transfers_id_seq') AS transfer
      FROM unnest(p_req, p_leg, p_debit, p_credit, p_amount, p_log, p_ref) AS v (req, leg, debit, credit, amount, log, ref)
     WHERE v.req <> ALL (coalesce(v_done, '{}'))
       AND CASE WHEN v.req IS NULL OR v.req < 1 OR v.req > cardinality(p_keys) OR v.leg IS NULL
                  OR v.debit IS NULL OR v.credit IS NULL OR v.debit = v.credit OR v.log IS NULL
                  OR v.amount IS NULL OR v.amount <= 0 OR v.amount <> round(v.amount, 18)
                THEN ledger_fail('HL004', 'malformed leg', NULL) ELSE true END
  ), s AS MATERIALIZED (
    SELECT g.req, g.leg, x.side, x.account, x.other, x.delta, g.transfer, g.log, g.ref
      FROM g CROSS JOIN LATERAL (VALUES (0, g.debit, g.credit, -g.amount), (1, g.credit, g.debit, g.amount))
           AS x (side, account, other, delta)
  ), moved AS (
    UPDATE ledger_accounts a SET balance = a.balance + m.delta, version = a.version + m.entries
      FROM (SELECT account, sum(delta) AS delta, count(*) AS entries FROM s GROUP BY account) m
     WHERE a.id = m.account
    RETURNING a.id, a.user_id, a.currency, a.balance, a.debits_pending, a.version
  ), run AS MATERIALIZED (
    SELECT s.req, s.leg, s.side, s.account, s.other, s.delta, s.transfer, s.log, s.ref, m.user_id, m.currency,
           m.balance - coalesce(sum(s.delta) OVER later, 0) AS after,
           m.version - count(*) OVER later AS version,
           CASE WHEN m.id IS NULL OR o.id IS NULL OR m.currency <> o.currency
                  THEN ledger_fail('HL004', 'malformed leg', NULL)
                WHEN m.user_id IS NOT NULL AND m.balance - coalesce(sum(s.delta) OVER later, 0) - m.debits_pending < 0
                  THEN ledger_fail('HL001', 'insufficient funds', s.account::text) END AS failed
      FROM s LEFT JOIN moved m ON m.id = s.account LEFT JOIN moved o ON o.id = s.other
    WINDOW later AS (PARTITION BY s.account ORDER BY s.req, s.leg, s.side ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)
  ), t AS (
    INSERT INTO ledger_transfers (id, request_key, leg, request_hash, kind, debit_account_id, credit_account_id,
                                  currency, amount, log_type, reference)
    OVERRIDING SYSTEM VALUE
    SELECT r.transfer, p_keys[r.req], r.leg, CASE WHEN r.leg = 0 THEN p_hashes[r.req] END, 'posted',
           r.account, r.other, r.currency, -r.delta, r.log, r.ref
      FROM run r WHERE r.side = 0
  ), e AS (
    INSERT INTO ledger_entries (transfer_id, account_id, user_id, amount, balance_after, account_version)
    SELECT r.transfer, r.account, r.user_id, r.delta, r.after, r.version FROM run r
  )
  SELECT g.req, false, false, array_agg(g.transfer ORDER BY g.leg) FROM g GROUP BY g.req;
END $function$
;
