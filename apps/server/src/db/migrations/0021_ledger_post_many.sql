-- Raises a ledger error from inside a statement (a CASE branch), so a set-based statement can
-- refuse a request with the same codes as the rest of the ledger.
CREATE FUNCTION ledger_fail(p_code text, p_message text, p_detail text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', p_message USING ERRCODE = p_code, DETAIL = coalesce(p_detail, '');
END $$;

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
CREATE FUNCTION ledger_post_many(
  p_keys text[], p_hashes bytea[], p_req int[], p_leg smallint[], p_debit bigint[], p_credit bigint[],
  p_amount numeric[], p_log smallint[], p_ref text[])
RETURNS TABLE (req int, replayed boolean, conflict boolean, transfers bigint[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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
END $$;
