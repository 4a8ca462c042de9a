-- Each withdrawal's payout id: 32 random bytes given when it is made, the key under which the
-- payout vault pays it once. Random, never a sequence, so a restored database cannot reuse one.
ALTER TABLE withdrawals
  ADD COLUMN payout_id text NOT NULL
    DEFAULT ('0x' || encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'))
    CHECK (payout_id ~ '^0x[0-9a-f]{64}$');
CREATE UNIQUE INDEX withdrawals_payout_id_idx ON withdrawals (payout_id);

-- The signer keeps what it signed: a repeated request gets the same bytes back, and only a
-- replacement of the same nonce with a higher fee is signed again.
ALTER TABLE signer_log
  ADD COLUMN payout_id text,
  ADD COLUMN raw_tx text,
  ADD COLUMN max_fee_per_gas numeric(78, 0),
  ADD COLUMN max_priority_fee_per_gas numeric(78, 0);
CREATE INDEX signer_log_withdrawal_idx ON signer_log (withdrawal_id, id DESC);

-- Proof-of-liabilities publications the signer signed: each at a block after the last one.
CREATE TABLE signer_por_log (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  snapshot_id   bigint NOT NULL,
  block_number  bigint NOT NULL,
  nonce         bigint,
  tx_hash       text NOT NULL,
  raw_tx        text NOT NULL,
  max_fee_per_gas           numeric(78, 0),
  max_priority_fee_per_gas  numeric(78, 0),
  signed_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signer_por_log_block_idx ON signer_por_log (block_number DESC);
