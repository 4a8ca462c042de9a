-- Which message opened a session: the spec's `HOPE Login<ms>` (legacy, it names no site) or
-- Sign-In with Ethereum (EIP-4361). The console counts them, to know when the legacy one can go.
ALTER TABLE sessions ADD COLUMN login_message text CHECK (login_message IN ('legacy', 'siwe'));
CREATE INDEX sessions_created_idx ON sessions (created_at);
