-- Referral tree: every user carries the ids of its uplines, root first, so "is B in A's
-- downline" is one indexed test and the tree can be distributed by user id later.
ALTER TABLE users ADD COLUMN ancestor_ids bigint[] NOT NULL DEFAULT '{}';
CREATE INDEX users_ancestors_idx ON users USING gin (ancestor_ids);

CREATE FUNCTION users_set_ancestors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.inviter_id IS NULL THEN
    NEW.ancestor_ids := '{}';
  ELSE
    SELECT ancestor_ids || id INTO NEW.ancestor_ids FROM users WHERE id = NEW.inviter_id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER users_set_ancestors BEFORE INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION users_set_ancestors();

-- Ledger accounts: five per user, and platform accounts per currency (issuers: they may go
-- negative). Hot platform accounts have several shards so transfers do not queue on one row.
CREATE TABLE ledger_accounts (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         bigint REFERENCES users (id),
  kind            text NOT NULL,
  currency        text NOT NULL CHECK (currency IN ('USDT', 'HOPE')),
  shard           smallint NOT NULL DEFAULT 0,
  balance         numeric(38, 18) NOT NULL DEFAULT 0,
  debits_pending  numeric(38, 18) NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
  credits_pending numeric(38, 18) NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
  version         bigint NOT NULL DEFAULT 0,
  CONSTRAINT user_account_not_negative CHECK (user_id IS NULL OR balance - debits_pending >= 0),
  CONSTRAINT user_account_kind CHECK (
    (user_id IS NOT NULL) = (kind IN ('usdt', 'community', 'shareholder', 'node', 'split'))
  )
);
-- Balances change on every transfer: half-empty pages let those updates stay on the page
-- (HOT) without touching the indexes.
ALTER TABLE ledger_accounts SET (fillfactor = 50);
CREATE UNIQUE INDEX ledger_accounts_user_idx ON ledger_accounts (user_id, kind) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_platform_idx ON ledger_accounts (kind, currency, shard) WHERE user_id IS NULL;

CREATE FUNCTION users_open_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_accounts (user_id, kind, currency) VALUES
    (NEW.id, 'usdt', 'USDT'), (NEW.id, 'community', 'HOPE'), (NEW.id, 'shareholder', 'USDT'),
    (NEW.id, 'node', 'USDT'), (NEW.id, 'split', 'HOPE');
  RETURN NULL;
END $$;
CREATE TRIGGER users_open_accounts AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION users_open_accounts();
INSERT INTO ledger_accounts (user_id, kind, currency)
  SELECT u.id, k.kind, k.currency FROM users u
  CROSS JOIN (VALUES ('usdt', 'USDT'), ('community', 'HOPE'), ('shareholder', 'USDT'), ('node', 'USDT'), ('split', 'HOPE')) AS k (kind, currency);

INSERT INTO ledger_accounts (kind, currency, shard)
  SELECT k.kind, c.currency, s.shard
  FROM (VALUES ('treasury', 1), ('fees', 16), ('chain_deposits', 1), ('withdrawals_in_flight', 1),
               ('reward_pool', 16), ('stake_pool', 16), ('stage_sales', 16), ('hope_supply', 16),
               ('redemption_pool', 16)) AS k (kind, shards)
  CROSS JOIN (VALUES ('USDT'), ('HOPE')) AS c (currency)
  CROSS JOIN LATERAL generate_series(0, k.shards - 1) AS s (shard);

-- Transfers are never edited: a pending transfer is resolved by a later post_pending or
-- void_pending transfer that names it, at most once. The idempotency key and the hash of the
-- request it first came with live on the request's first leg.
-- Rows here and in ledger_entries are written only by ledger_apply, which checks every account
-- it names under lock; foreign keys are left out of this hot path and `ledger:verify` checks
-- that every reference resolves.
CREATE TABLE ledger_transfers (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_key       text NOT NULL,
  leg               smallint NOT NULL,
  request_hash      bytea,
  kind              text NOT NULL CHECK (kind IN ('posted', 'pending', 'post_pending', 'void_pending')),
  debit_account_id  bigint NOT NULL,
  credit_account_id bigint NOT NULL,
  currency          text NOT NULL,
  amount            numeric(38, 18) NOT NULL CHECK (amount >= 0),
  log_type          smallint NOT NULL,
  pending_id        bigint,
  reference         text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (request_key, leg),
  CHECK (debit_account_id <> credit_account_id),
  CHECK ((kind IN ('post_pending', 'void_pending')) = (pending_id IS NOT NULL)),
  CHECK ((leg = 0) = (request_hash IS NOT NULL))
);
CREATE UNIQUE INDEX ledger_transfers_resolution_idx ON ledger_transfers (pending_id) WHERE pending_id IS NOT NULL;
CREATE INDEX ledger_transfers_reference_idx ON ledger_transfers (reference) WHERE reference IS NOT NULL;

-- Posted movements, one row per account touched: a balance is the sum of its entries.
CREATE TABLE ledger_entries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transfer_id     bigint NOT NULL,
  account_id      bigint NOT NULL,
  -- the account's owner, copied so a user's log is one index range (null for platform accounts)
  user_id         bigint,
  amount          numeric(38, 18) NOT NULL,
  balance_after   numeric(38, 18) NOT NULL,
  account_version bigint NOT NULL
);
CREATE INDEX ledger_entries_transfer_idx ON ledger_entries (transfer_id);
CREATE INDEX ledger_entries_user_idx ON ledger_entries (user_id, id DESC) WHERE user_id IS NOT NULL;

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'HL009';
END $$;
CREATE TRIGGER ledger_transfers_append_only BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- The answer to a key seen before: its first result, or HL002 when the content differs.
CREATE FUNCTION ledger_replay(p_key text, p_hash bytea, p_stored bytea, OUT replayed boolean, OUT transfers bigint[])
LANGUAGE plpgsql AS $$
BEGIN
  IF p_stored IS DISTINCT FROM p_hash THEN
    RAISE EXCEPTION 'idempotency key % was used for another request', p_key USING ERRCODE = 'HL002';
  END IF;
  replayed := true;
  SELECT array_agg(id ORDER BY leg) INTO transfers FROM ledger_transfers WHERE request_key = p_key;
END $$;

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
CREATE FUNCTION ledger_apply(
  p_key text, p_hash bytea, p_kind text[], p_debit bigint[], p_credit bigint[], p_amount numeric[],
  p_log smallint[], p_pending bigint[], p_ref text[], OUT replayed boolean, OUT transfers bigint[])
LANGUAGE plpgsql AS $$
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
  END LOOP;

  WITH inserted AS (
    INSERT INTO ledger_transfers (request_key, leg, request_hash, kind, debit_account_id, credit_account_id,
                                  currency, amount, log_type, pending_id, reference)
    SELECT p_key, (u.n - 1)::smallint, CASE WHEN u.n = 1 THEN p_hash END, u.kind, u.debit, u.credit,
           u.cur, u.amount, u.log, u.pending, u.ref
    FROM unnest(p_kind, t_debit, t_credit, t_cur, t_amount, t_log, t_pending, p_ref)
         WITH ORDINALITY AS u (kind, debit, credit, cur, amount, log, pending, ref, n)
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
