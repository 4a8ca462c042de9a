-- The operator console: a second factor for operators, reasons on setting changes, who
-- reviewed a withdrawal when, and the periodic ledger check.

-- totp_secret holds the authenticator secret sealed with the operator key (AES-256-GCM);
-- totp_last_step is the time step of the last code accepted, so a code works once.
ALTER TABLE operators ADD COLUMN totp_last_step bigint;

ALTER TABLE setting_changes ADD COLUMN reason text;
CREATE INDEX setting_changes_key_idx ON setting_changes (key, id DESC);

ALTER TABLE withdrawals ADD COLUMN reviewed_at timestamptz;
UPDATE withdrawals SET reviewed_at = updated_at WHERE reviewed_by IS NOT NULL;
CREATE INDEX withdrawals_status_idx ON withdrawals (status, id DESC);
CREATE INDEX withdrawals_reviewed_idx ON withdrawals (reviewed_at) WHERE reviewed_at IS NOT NULL;

-- Member search: address prefix (LIKE 'abc%' needs the pattern operator class) and new members.
CREATE INDEX users_name_prefix_idx ON users (user_name text_pattern_ops);
CREATE INDEX users_created_idx ON users (created_at);

CREATE INDEX operator_audit_action_idx ON operator_audit (action, id DESC);
CREATE INDEX deposits_tx_idx ON deposits (tx_hash);

-- Each run of the ledger check (the invariants of `npm run ledger:verify`); the console shows
-- the newest.
CREATE TABLE ledger_checks (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ok         boolean NOT NULL,
  problems   jsonb NOT NULL,
  accounts   integer NOT NULL,
  transfers  bigint NOT NULL,
  checked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_checks_checked_idx ON ledger_checks (checked_at DESC);
