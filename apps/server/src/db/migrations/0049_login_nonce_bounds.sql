-- Sign-in nonces are bounded: per address (the newest few), per asking IP and in all (settings
-- loginNoncesPerAddress, loginNoncesPerIp, loginNoncesMax). The IP a nonce was handed to, and
-- the indexes the bounds count with.
ALTER TABLE login_nonces ADD COLUMN ip text;
CREATE INDEX login_nonces_address_idx ON login_nonces (address, expires_at);
CREATE INDEX login_nonces_ip_idx ON login_nonces (ip, expires_at) WHERE used_at IS NULL;
