-- An alarm no job closes by itself (the chain scan's: a payout the books do not know, one that
-- differs, tokens leaving the platform's addresses otherwise) is closed by an operator in the
-- console, who says why. A job that sees its condition end leaves both empty.
ALTER TABLE operator_alarms
  ADD COLUMN resolved_by bigint REFERENCES operators (id),
  ADD COLUMN resolution  text,
  ADD CONSTRAINT operator_alarms_resolution_check
    CHECK (resolved_by IS NULL OR (resolved_at IS NOT NULL AND resolution IS NOT NULL));
