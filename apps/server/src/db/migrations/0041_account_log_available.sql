-- What a reservation leaves a user free to spend: a two-phase transfer (a withdrawal's amount
-- or fee held, its payout, its refund) records the debit account's total held after it, so the
-- account log can say the available balance (posted balance minus what is held) after every
-- line, reading one index entry per line at any depth. Posted transfers leave the held total
-- as it was and record nothing: the hot path writes what it wrote before.
ALTER TABLE ledger_transfers ADD COLUMN debit_pending_after numeric(48, 18);

-- The two-phase transfers written so far, each with the held total after it: per debit account
-- in transfer id order (the order the account moved, ids being allocated under its lock),
-- + a reservation's amount, - the reservation a payout or a refund resolves.
ALTER TABLE ledger_transfers DISABLE TRIGGER ledger_transfers_append_only;
UPDATE ledger_transfers t SET debit_pending_after = h.after
  FROM (SELECT x.id, sum(CASE WHEN x.kind = 'pending' THEN x.amount ELSE -p.amount END)
                 OVER (PARTITION BY x.debit_account_id ORDER BY x.id) AS after
          FROM ledger_transfers x
          LEFT JOIN ledger_transfers p ON p.id = x.pending_id
         WHERE x.kind <> 'posted') h
 WHERE t.id = h.id;
ALTER TABLE ledger_transfers ENABLE TRIGGER ledger_transfers_append_only;

CREATE INDEX ledger_transfers_held_idx ON ledger_transfers (debit_account_id, id DESC)
  WHERE debit_pending_after IS NOT NULL;

-- ledger_apply: its text as it is now is in db/functions/ledger.sql, which the migrator
-- applies after the migrations.
