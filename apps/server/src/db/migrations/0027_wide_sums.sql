-- Columns that add up many requests (balances, the HOPE sold, team performance, a day's
-- settlement totals) get 30 integer digits. One request moves at most 10^15 (the contract's
-- ceiling), so no sum of requests reaches this; single-request columns keep numeric(38, 18).
-- Widening a numeric's precision at the same scale rewrites no table.
ALTER TABLE ledger_accounts
  ALTER COLUMN balance TYPE numeric(48, 18),
  ALTER COLUMN debits_pending TYPE numeric(48, 18),
  ALTER COLUMN credits_pending TYPE numeric(48, 18);
ALTER TABLE ledger_entries ALTER COLUMN balance_after TYPE numeric(48, 18);
ALTER TABLE token_sale ALTER COLUMN sold TYPE numeric(48, 18);
ALTER TABLE team_stats
  ALTER COLUMN consensus TYPE numeric(48, 18),
  ALTER COLUMN community TYPE numeric(48, 18);
ALTER TABLE split_grants
  ALTER COLUMN total TYPE numeric(48, 18),
  ALTER COLUMN released TYPE numeric(48, 18);
ALTER TABLE settlement_runs
  ALTER COLUMN consensus_hope TYPE numeric(48, 18),
  ALTER COLUMN pledge_hope TYPE numeric(48, 18),
  ALTER COLUMN split_hope TYPE numeric(48, 18),
  ALTER COLUMN node_usdt TYPE numeric(48, 18),
  ALTER COLUMN rank_hope TYPE numeric(48, 18);
ALTER TABLE settlement_user_values ALTER COLUMN value TYPE numeric(48, 18);
ALTER TABLE ranking_entries ALTER COLUMN value TYPE numeric(48, 18);
