-- A revoked user session is announced on commit to every server process (channel
-- `session_revoked`, payload the session id), so each closes that session's chat sockets at
-- once. A trigger rather than the logout code, so that every way of ending a session counts:
-- logout, a login that replaces the session its signed pair opened, an operator's SQL.
CREATE FUNCTION sessions_notify_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_revoked', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_revoked_notify AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION sessions_notify_revoked();

CREATE TRIGGER sessions_deleted_notify AFTER DELETE ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL)
  EXECUTE FUNCTION sessions_notify_revoked();
