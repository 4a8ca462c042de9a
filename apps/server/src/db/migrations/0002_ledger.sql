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
CREATE FUNCTION ledger_replay(p_key text, p_hash bytea, p_stored bytea) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  IF p_stored IS DISTINCT FROM p_hash THEN
    RAISE EXCEPTION 'idempotency key % was used for another request', p_key USING ERRCODE = 'HL002';
  END IF;
  RETURN jsonb_build_object('replayed', true, 'transfers',
    (SELECT jsonb_agg(id ORDER BY leg) FROM ledger_transfers WHERE request_key = p_key));
END $$;

-- Applies the legs of one request, all or nothing, in one round trip.
-- Legs (jsonb array): {kind:'posted'|'pending', debit, credit, amount, logType, ref?}
--                     {kind:'post_pending', pending, amount?, ref?} | {kind:'void_pending', pending, ref?}
-- Errors: HL001 insufficient funds (DETAIL = account id), HL002 same key with another request,
--         HL003 pending transfer missing or already resolved, HL004 malformed leg.
-- Two first-time requests with one key and disjoint accounts meet at the unique
-- (request_key, leg) index: the later one fails with 23505 and the caller asks again.
CREATE FUNCTION ledger_apply(p_key text, p_hash bytea, p_legs jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_hash    bytea;
  v_ids     bigint[];
  v_leg     jsonb;
  v_leg_no  smallint := 0;
  v_kind    text;
  v_debit   bigint;
  v_credit  bigint;
  v_amount  numeric;
  v_release numeric;
  v_log     smallint;
  v_cur     text;
  v_tid     bigint;
  v_pending ledger_transfers%ROWTYPE;
  v_bal     numeric;
  v_ver     bigint;
  v_user    bigint;
  v_out     bigint[] := '{}';
BEGIN
  SELECT request_hash INTO v_hash FROM ledger_transfers WHERE request_key = p_key AND leg = 0;
  IF FOUND THEN
    RETURN ledger_replay(p_key, p_hash, v_hash);
  END IF;
  IF jsonb_typeof(p_legs) <> 'array' OR jsonb_array_length(p_legs) = 0 THEN
    RAISE EXCEPTION 'no legs' USING ERRCODE = 'HL004';
  END IF;

  -- Lock every account touched, in id order, before any row references them.
  SELECT array_agg(DISTINCT a ORDER BY a) INTO v_ids FROM (
    SELECT (l ->> 'debit')::bigint AS a FROM jsonb_array_elements(p_legs) l WHERE l ? 'debit'
    UNION ALL SELECT (l ->> 'credit')::bigint FROM jsonb_array_elements(p_legs) l WHERE l ? 'credit'
    UNION ALL SELECT t.debit_account_id FROM ledger_transfers t
      WHERE t.id IN (SELECT (l ->> 'pending')::bigint FROM jsonb_array_elements(p_legs) l WHERE l ? 'pending')
    UNION ALL SELECT t.credit_account_id FROM ledger_transfers t
      WHERE t.id IN (SELECT (l ->> 'pending')::bigint FROM jsonb_array_elements(p_legs) l WHERE l ? 'pending')
  ) s;
  PERFORM 1 FROM ledger_accounts WHERE id = ANY (v_ids) ORDER BY id FOR NO KEY UPDATE;
  -- A request with the same key that held these locks before us has committed by now.
  SELECT request_hash INTO v_hash FROM ledger_transfers WHERE request_key = p_key AND leg = 0;
  IF FOUND THEN
    RETURN ledger_replay(p_key, p_hash, v_hash);
  END IF;

  FOR v_leg IN SELECT value FROM jsonb_array_elements(p_legs) LOOP
    v_kind := v_leg ->> 'kind';
    IF v_kind IN ('posted', 'pending') THEN
      v_debit := (v_leg ->> 'debit')::bigint;
      v_credit := (v_leg ->> 'credit')::bigint;
      v_amount := (v_leg ->> 'amount')::numeric;
      v_log := (v_leg ->> 'logType')::smallint;
      IF v_amount IS NULL OR v_amount <= 0 OR v_amount <> round(v_amount, 18) OR v_log IS NULL OR v_debit IS NULL OR v_credit IS NULL OR v_debit = v_credit THEN
        RAISE EXCEPTION 'malformed leg %', v_leg USING ERRCODE = 'HL004';
      END IF;
      SELECT min(currency) INTO v_cur FROM ledger_accounts WHERE id IN (v_debit, v_credit) HAVING count(DISTINCT currency) = 1 AND count(*) = 2;
      IF v_cur IS NULL THEN
        RAISE EXCEPTION 'accounts % and % missing or of different currencies', v_debit, v_credit USING ERRCODE = 'HL004';
      END IF;
    ELSIF v_kind IN ('post_pending', 'void_pending') THEN
      SELECT * INTO v_pending FROM ledger_transfers WHERE id = (v_leg ->> 'pending')::bigint AND kind = 'pending';
      IF NOT FOUND OR EXISTS (SELECT 1 FROM ledger_transfers WHERE pending_id = v_pending.id) THEN
        RAISE EXCEPTION 'pending transfer % missing or already resolved', v_leg ->> 'pending' USING ERRCODE = 'HL003';
      END IF;
      v_debit := v_pending.debit_account_id;
      v_credit := v_pending.credit_account_id;
      v_cur := v_pending.currency;
      v_log := v_pending.log_type;
      v_release := v_pending.amount;
      v_amount := CASE WHEN v_kind = 'void_pending' THEN v_pending.amount
                       ELSE coalesce((v_leg ->> 'amount')::numeric, v_pending.amount) END;
      IF v_kind = 'post_pending' AND (v_amount <= 0 OR v_amount > v_pending.amount OR v_amount <> round(v_amount, 18)) THEN
        RAISE EXCEPTION 'post amount % outside (0, %]', v_amount, v_pending.amount USING ERRCODE = 'HL004';
      END IF;
    ELSE
      RAISE EXCEPTION 'unknown leg kind %', v_kind USING ERRCODE = 'HL004';
    END IF;

    INSERT INTO ledger_transfers (request_key, leg, request_hash, kind, debit_account_id, credit_account_id, currency, amount, log_type, pending_id, reference)
      VALUES (p_key, v_leg_no, CASE WHEN v_leg_no = 0 THEN p_hash END, v_kind, v_debit, v_credit, v_cur, v_amount, v_log,
              CASE WHEN v_kind IN ('post_pending', 'void_pending') THEN v_pending.id END, v_leg ->> 'ref')
      RETURNING id INTO v_tid;
    v_out := v_out || v_tid;
    v_leg_no := v_leg_no + 1;

    IF v_kind = 'pending' THEN
      UPDATE ledger_accounts SET debits_pending = debits_pending + v_amount
        WHERE id = v_debit AND (user_id IS NULL OR balance - debits_pending >= v_amount);
      IF NOT FOUND THEN RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'HL001', DETAIL = v_debit::text; END IF;
      UPDATE ledger_accounts SET credits_pending = credits_pending + v_amount WHERE id = v_credit;
    ELSIF v_kind = 'void_pending' THEN
      UPDATE ledger_accounts SET debits_pending = debits_pending - v_release WHERE id = v_debit;
      UPDATE ledger_accounts SET credits_pending = credits_pending - v_release WHERE id = v_credit;
    ELSE
      -- posted, or post_pending which first releases its reservation
      IF v_kind = 'post_pending' THEN
        UPDATE ledger_accounts SET debits_pending = debits_pending - v_release WHERE id = v_debit;
        UPDATE ledger_accounts SET credits_pending = credits_pending - v_release WHERE id = v_credit;
      END IF;
      UPDATE ledger_accounts SET balance = balance - v_amount, version = version + 1
        WHERE id = v_debit AND (user_id IS NULL OR balance - debits_pending >= v_amount)
        RETURNING balance, version, user_id INTO v_bal, v_ver, v_user;
      IF NOT FOUND THEN RAISE EXCEPTION 'insufficient funds' USING ERRCODE = 'HL001', DETAIL = v_debit::text; END IF;
      INSERT INTO ledger_entries (transfer_id, account_id, user_id, amount, balance_after, account_version)
        VALUES (v_tid, v_debit, v_user, -v_amount, v_bal, v_ver);
      UPDATE ledger_accounts SET balance = balance + v_amount, version = version + 1
        WHERE id = v_credit RETURNING balance, version, user_id INTO v_bal, v_ver, v_user;
      INSERT INTO ledger_entries (transfer_id, account_id, user_id, amount, balance_after, account_version)
        VALUES (v_tid, v_credit, v_user, v_amount, v_bal, v_ver);
    END IF;
  END LOOP;
  RETURN jsonb_build_object('replayed', false, 'transfers', to_jsonb(v_out));
END $$;
