-- The ledger position a proof-of-liabilities snapshot cut the books at: the newest ledger
-- transfer it counts, with every transfer at or before it committed before the cut (the snapshot
-- briefly waits for transfers in flight). The app compares each user's account log at that
-- position with the proven balance.
ALTER TABLE por_snapshots ADD COLUMN ledger_position bigint;
