-- The issue time of the Sign-In with Ethereum message a nonce was handed out in: a signed message
-- must carry exactly the times the server wrote (a nonce kept before has none: sign anew).
ALTER TABLE login_nonces ADD COLUMN issued_at timestamptz;
