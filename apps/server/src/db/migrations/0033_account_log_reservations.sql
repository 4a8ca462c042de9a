-- The account log shows a user's reservations (a withdrawal's pending transfers) and their
-- refunds (the void) beside the posted entries, all ordered by transfer id: per account, the
-- ledger allocates transfer ids under the account's lock, so that order is the order in which
-- the account moved. One range of each index per account and page, at any depth.
CREATE INDEX ledger_entries_account_transfer_idx ON ledger_entries (account_id, transfer_id DESC)
  WHERE user_id IS NOT NULL;
DROP INDEX ledger_entries_account_idx;

-- Pending transfers and their voids by the account they reserve from. Only two-phase transfers
-- (withdrawals, deposits awaiting finality) enter it: posted transfers, the hot path, add nothing.
CREATE INDEX ledger_transfers_reserved_idx ON ledger_transfers (debit_account_id, id DESC)
  WHERE kind IN ('pending', 'void_pending');
