-- When the deposit scan last ran (any process): a worker skips its run while another's is
-- fresh, so several workers ask the chain no more often than one.
ALTER TABLE chain_cursors ADD COLUMN scanned_at timestamptz;
