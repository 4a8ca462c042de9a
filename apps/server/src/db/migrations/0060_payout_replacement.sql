-- A payout not mined within payoutReplaceAfterBlocks blocks is replaced (same nonce, higher
-- fees): the head when the payout now recorded was sent, and how many times it was replaced.
ALTER TABLE withdrawals
  ADD COLUMN payout_sent_block bigint,
  ADD COLUMN payout_replacements integer NOT NULL DEFAULT 0;
