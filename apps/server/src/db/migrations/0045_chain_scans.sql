-- How far each scan of the chain has read, by name (e.g. the reconciliation's scan of one payout
-- vault) and chain: the last block read, and its hash when read, so the next run starts after it
-- and sees when a reorganisation replaced it.
CREATE TABLE chain_scan_checkpoints (
  name        text NOT NULL,
  chain_id    bigint NOT NULL,
  block       bigint NOT NULL CHECK (block >= 0),
  block_hash  text,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (name, chain_id)
);
