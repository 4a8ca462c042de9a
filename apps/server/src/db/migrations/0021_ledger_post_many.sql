-- ledger_fail: its text as it is now is in db/functions/ledger.sql, which the migrator
-- applies after the migrations.

-- ledger_post_many: its text as it is now is in db/functions/ledger.sql, which the migrator
-- applies after the migrations.
