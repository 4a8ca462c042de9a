-- A withdrawal to an address the user has not been paid at before waits until hold_until
-- before an operator may approve it (setting newAddressHoldHours); the user may cancel it.
ALTER TABLE withdrawals ADD COLUMN hold_until timestamptz;
-- Whether a user was paid at an address before: one index probe per request.
CREATE INDEX withdrawals_user_address_idx ON withdrawals (user_id, to_address) WHERE status IN (1, 2, 5);
