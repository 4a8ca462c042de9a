-- Sign-In with Ethereum (EIP-4361): each login message names a nonce the server handed out for
-- one address; it is spent by the sign-in it opens, so a signed message opens one session only.
CREATE TABLE login_nonces (
  nonce      text PRIMARY KEY,
  address    text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX login_nonces_expires_idx ON login_nonces (expires_at);
