-- The account figures' volumes (packages/api account-figures.ts): per user, running totals of
-- the posted lines of the USDT account, kept by the volume job (modules/account/figures.job.ts)
-- so that a request reads one row instead of summing a user's whole history.
CREATE TABLE account_volumes (
  user_id      bigint PRIMARY KEY REFERENCES users (id),
  -- log types 2, 15 and 16: USDT exchanged against HOPE
  trading_usdt numeric(48, 18) NOT NULL DEFAULT 0 CHECK (trading_usdt >= 0),
  -- every line, absolute amounts
  total_usdt   numeric(48, 18) NOT NULL DEFAULT 0 CHECK (total_usdt >= 0)
);

-- How far the totals go: every ledger transfer with an id up to transfer_id is counted, and
-- every line posted before as_of. One row, moved in the same transaction as the totals.
CREATE TABLE account_volume_watermark (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  transfer_id bigint NOT NULL DEFAULT 0,
  as_of       timestamptz
);
INSERT INTO account_volume_watermark DEFAULT VALUES;
