-- A withdrawal the user cancels gets a notice of its own in the bell.
ALTER TABLE security_notices DROP CONSTRAINT security_notices_kind_check;
ALTER TABLE security_notices ADD CONSTRAINT security_notices_kind_check CHECK (kind IN (
  'new_device', 'new_withdrawal_address', 'withdrawal_requested', 'withdrawal_paid',
  'withdrawal_cancelled', 'limit_reached'));
