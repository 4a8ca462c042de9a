-- Proof of liabilities and reserves: one row per snapshot of the users' balances, taken at a
-- chain block B at the confirmation depth. Amounts are integers at the currency's scale (USDT 6
-- decimals, HOPE 18), as the Merkle-sum tree commits them. The tree's per-snapshot secret (it
-- salts the leaves) is never stored: the proofs are kept instead, so none can be rebuilt or
-- leaked from here.
--   status: pending   built and stored, its publish transaction not yet at the depth
--           published the registry holds its root at the confirmation depth
--           reorged   block B left the chain: the snapshot is void, the next one replaces it
CREATE TABLE por_snapshots (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  chain_id         bigint NOT NULL,
  taken_at         timestamptz NOT NULL DEFAULT now(),
  block_number     bigint NOT NULL CHECK (block_number >= 0),
  block_hash       text NOT NULL,
  root             text NOT NULL,
  users            integer NOT NULL CHECK (users >= 0),
  total_usdt       numeric(78, 0) NOT NULL CHECK (total_usdt >= 0),
  total_hope       numeric(78, 0) NOT NULL CHECK (total_hope >= 0),
  -- withdrawals broadcast but not confirmed at B: part of total_usdt, maybe already gone from
  -- the hot wallet on chain
  in_flight_usdt   numeric(78, 0) NOT NULL CHECK (in_flight_usdt >= 0),
  -- each reserve address's token balance at B, at the token's decimals:
  -- [{ "address": "0x…", "balance": "123" }], and their sum
  reserves         jsonb NOT NULL,
  reserves_usdt    numeric(78, 0) NOT NULL CHECK (reserves_usdt >= 0),
  token_address    text NOT NULL,
  token_decimals   smallint NOT NULL,
  registry_address text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'reorged')),
  publish_tx_hash  text,
  -- how many times the publish transaction was sent (a reorg that drops it makes another)
  publish_attempts integer NOT NULL DEFAULT 0,
  publish_block    bigint,
  published_at     timestamptz
);
CREATE INDEX por_snapshots_published_idx ON por_snapshots (id DESC) WHERE status = 'published';
CREATE UNIQUE INDEX por_snapshots_one_pending_idx ON por_snapshots ((true)) WHERE status = 'pending';

-- Each user's proof file for a snapshot, as the tree gave it (parts, salts and paths). Dropped
-- after the retention days (setting porRetentionDays); the snapshot row stays.
CREATE TABLE por_proofs (
  snapshot_id bigint NOT NULL REFERENCES por_snapshots (id) ON DELETE CASCADE,
  address     text NOT NULL,
  proof       jsonb NOT NULL,
  PRIMARY KEY (snapshot_id, address)
);

-- "Publish now" from the console: at most one open request, taken by the snapshot job.
CREATE TABLE por_requests (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  done_at      timestamptz,
  snapshot_id  bigint REFERENCES por_snapshots (id)
);
CREATE UNIQUE INDEX por_requests_open_idx ON por_requests ((true)) WHERE done_at IS NULL;
