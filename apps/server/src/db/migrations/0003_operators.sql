CREATE TABLE operators (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username      text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  role          text NOT NULL CHECK (role IN ('admin', 'finance', 'content', 'support')),
  totp_secret   text,
  disabled      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE operator_sessions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  operator_id bigint NOT NULL REFERENCES operators (id),
  token_hash  bytea NOT NULL UNIQUE,
  ip          text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);

-- Who did what to whose money, when, with the balance before and after. Never edited.
CREATE TABLE operator_audit (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  operator_id    bigint NOT NULL REFERENCES operators (id),
  action         text NOT NULL,
  target_user_id bigint REFERENCES users (id),
  account_id     bigint REFERENCES ledger_accounts (id),
  transfer_id    bigint REFERENCES ledger_transfers (id),
  amount         numeric(38, 18),
  reason         text NOT NULL,
  before         jsonb,
  after          jsonb,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX operator_audit_transfer_idx ON operator_audit (transfer_id) WHERE transfer_id IS NOT NULL;
CREATE TRIGGER operator_audit_append_only BEFORE UPDATE OR DELETE ON operator_audit
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
