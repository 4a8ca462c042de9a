-- How far the deposit watcher has scanned each chain, and the hashes of the recent blocks it
-- scanned, so a reorg is seen and walked back.
CREATE TABLE chain_blocks (
  chain_id bigint NOT NULL,
  number   bigint NOT NULL,
  hash     text NOT NULL,
  PRIMARY KEY (chain_id, number)
);

CREATE TABLE chain_cursors (
  chain_id     bigint PRIMARY KEY,
  block_number bigint NOT NULL
);

-- One row per Transfer log of the configured token to the deposit address.
CREATE TABLE deposits (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  chain_id            bigint NOT NULL,
  tx_hash             text NOT NULL,
  log_index           integer NOT NULL,
  block_number        bigint NOT NULL,
  block_hash          text NOT NULL,
  token               text NOT NULL,
  from_address        text NOT NULL,
  amount              numeric(38, 18) NOT NULL CHECK (amount > 0),
  user_id             bigint REFERENCES users (id),
  -- on_chain: seen, waiting for confirmations (a pending transfer holds it)
  -- credited: posted to the user's USDT account; reorged: dropped by a reorg (voided)
  -- unattributed: sent from an address that is not a registered user (not credited)
  status              text NOT NULL CHECK (status IN ('on_chain', 'credited', 'reorged', 'unattributed')),
  pending_transfer_id bigint,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, tx_hash, log_index)
);
CREATE INDEX deposits_user_idx ON deposits (user_id, id DESC);
CREATE INDEX deposits_open_idx ON deposits (chain_id, block_number) WHERE status = 'on_chain';
