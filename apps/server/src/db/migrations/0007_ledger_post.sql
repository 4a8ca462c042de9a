-- Idempotency keys are compared byte for byte: no collation work on the hottest unique index.
ALTER TABLE ledger_transfers ALTER COLUMN request_key TYPE text COLLATE "C";

-- An entry is found by its transfer and account; the user's log has its own index. One index
-- fewer on the table every posting writes to.
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_pkey;
ALTER TABLE ledger_entries ADD PRIMARY KEY (transfer_id, account_id);
DROP INDEX ledger_entries_transfer_idx;

-- The fee account takes a leg of most requests: 64 shards so concurrent requests rarely queue
-- on the same row.
INSERT INTO ledger_accounts (kind, currency, shard)
  SELECT 'fees', c.currency, s.shard
  FROM (VALUES ('USDT'), ('HOPE')) AS c (currency) CROSS JOIN generate_series(16, 63) AS s (shard);

-- ledger_apply runs with generic plans: set in db/functions/ledger.sql.

-- ledger_post: its text as it is now is in db/functions/ledger.sql, which the migrator
-- applies after the migrations.
