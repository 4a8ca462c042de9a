-- Transaction hashes the app posted after the wallet sent a recharge. The deposit watcher
-- credits by what the chain shows; a claim whose transaction reverted, or is not a transfer of
-- the configured token to the deposit address from the user's wallet, becomes failed.
CREATE TABLE recharge_claims (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    bigint NOT NULL REFERENCES users (id),
  chain_id   bigint NOT NULL,
  tx_hash    text NOT NULL,
  status     text NOT NULL CHECK (status IN ('on_chain', 'failed')),
  failure    text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, tx_hash)
);
CREATE INDEX recharge_claims_user_idx ON recharge_claims (user_id, id DESC);
CREATE INDEX recharge_claims_open_idx ON recharge_claims (chain_id, id) WHERE status = 'on_chain';
