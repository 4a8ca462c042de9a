-- Whether a withdrawal's destination held contract code when it was requested: true for a
-- contract (allowed, but it may not be able to move the tokens on), false for a plain account,
-- NULL when the chain could not be asked. Operators see it in the review list.
ALTER TABLE withdrawals ADD COLUMN contract_destination boolean;
