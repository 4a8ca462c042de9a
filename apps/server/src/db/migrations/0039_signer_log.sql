-- Every payout the signer signed: which withdrawal, how much, which transaction. Its hourly and
-- daily caps count distinct withdrawals here; a re-sign of the same one (a reorg) counts once.
CREATE TABLE signer_log (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  withdrawal_id  bigint NOT NULL,
  amount         numeric(38, 18) NOT NULL,
  tx_hash        text NOT NULL,
  nonce          bigint,
  signed_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signer_log_signed_idx ON signer_log (signed_at);
