-- The USDT value of consensus releases each member received in a settlement run: what rank
-- rewards of that day are a share of.
CREATE TABLE settlement_user_values (
  run_id  bigint NOT NULL REFERENCES settlement_runs (id),
  user_id bigint NOT NULL REFERENCES users (id),
  value   numeric(38, 18) NOT NULL,
  PRIMARY KEY (run_id, user_id)
);

-- Rank rewards (log 11) of a run, worked out once when the releases are done and then paid in
-- batches: a resumed run pays what is not yet paid, from the same figures.
CREATE TABLE settlement_rank_rewards (
  run_id  bigint NOT NULL REFERENCES settlement_runs (id),
  user_id bigint NOT NULL REFERENCES users (id),
  value   numeric(38, 18) NOT NULL CHECK (value > 0),
  paid    boolean NOT NULL DEFAULT false,
  PRIMARY KEY (run_id, user_id)
);

ALTER TABLE settlement_runs
  ADD COLUMN rank_rewards_ready boolean NOT NULL DEFAULT false,
  ADD COLUMN rank_hope numeric(38, 18) NOT NULL DEFAULT 0;
