-- Withdrawals (DESIGN §5). Status codes are the spec's: 0 pending review, 1 review passed,
-- 5 confirmed on chain, 2 completed, 3 review rejection, 4 failed to withdraw, 6 canceled.
CREATE TABLE withdrawals (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id             bigint NOT NULL REFERENCES users (id),
  chain_id            bigint NOT NULL,
  to_address          text NOT NULL,
  amount              numeric(38, 18) NOT NULL CHECK (amount > 0),
  fee                 numeric(38, 18) NOT NULL CHECK (fee >= 0),
  status              smallint NOT NULL CHECK (status IN (0, 1, 2, 3, 4, 5, 6)),
  idempotency_key     text NOT NULL,
  amount_transfer_id  bigint NOT NULL,
  fee_transfer_id     bigint,
  reviewed_by         bigint REFERENCES operators (id),
  review_reason       text,
  -- the payout, recorded before it is broadcast so a restart re-sends the same transaction
  raw_tx              text,
  tx_hash             text,
  tx_block            bigint,
  failure             text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, idempotency_key)
);
CREATE INDEX withdrawals_user_idx ON withdrawals (user_id, id DESC);
CREATE INDEX withdrawals_open_idx ON withdrawals (status, id) WHERE status IN (0, 1, 5);
