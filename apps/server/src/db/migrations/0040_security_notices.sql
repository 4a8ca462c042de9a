-- Security notices (the bell): what a user must hear of at once.
CREATE TABLE security_notices (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id),
  kind        text NOT NULL CHECK (kind IN ('new_device', 'new_withdrawal_address',
                'withdrawal_requested', 'withdrawal_paid', 'limit_reached')),
  detail      jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  read_at     timestamptz
);
CREATE INDEX security_notices_user_idx ON security_notices (user_id, id DESC);
CREATE INDEX security_notices_unread_idx ON security_notices (user_id) WHERE read_at IS NULL;

-- The devices (a hash of the browser's user agent) a user has signed in from.
CREATE TABLE user_devices (
  user_id     bigint NOT NULL REFERENCES users (id),
  device_hash bytea NOT NULL,
  first_seen  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, device_hash)
);
