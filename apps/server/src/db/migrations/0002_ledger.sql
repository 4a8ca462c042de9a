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

-- ledger_replay: its text as it is now is in db/functions/ledger.sql, which the migrator
-- applies after the migrations.

-- ledger_apply: its text as it is now is in db/functions/ledger.sql, which the migrator
-- applies after the migrations.
