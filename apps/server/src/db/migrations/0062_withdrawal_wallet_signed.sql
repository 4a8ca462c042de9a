-- Whether the request carried the member's wallet signature (EIP-712, verified when it was
-- made): true when signed, false when it was not (to the member's own wallet, which needs none).
-- NULL for withdrawals requested before this was recorded: they may well have been signed.
-- Operators see it in the review list.
ALTER TABLE withdrawals ADD COLUMN wallet_signed boolean;
