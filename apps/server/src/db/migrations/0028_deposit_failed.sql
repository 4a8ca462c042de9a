-- A deposit the watcher refuses to credit automatically (its amount is past the operators'
-- bound per amount) is recorded as failed with the reason and left to operators, so it never
-- blocks the deposits after it. The amount column holds any uint256 Transfer value at any
-- token decimals (78 whole digits), so recording such a deposit cannot overflow; widening the
-- precision at the same scale rewrites nothing.
ALTER TABLE deposits ALTER COLUMN amount TYPE numeric(96, 18);
ALTER TABLE deposits ADD COLUMN failure text;
ALTER TABLE deposits
  DROP CONSTRAINT deposits_status_check,
  ADD CONSTRAINT deposits_status_check
    CHECK (status IN ('on_chain', 'credited', 'reorged', 'unattributed', 'failed')),
  ADD CONSTRAINT deposits_failure_check CHECK ((status = 'failed') = (failure IS NOT NULL));
