-- The roles the running app connects as, beside the owner that migrates (and takes backups):
--   hope_app     the web workers and the jobs: reads and writes the app's rows, runs its
--                functions; owns nothing, creates nothing, and cannot write what the signer logs;
--   hope_signer  the signer: reads what it checks (withdrawals, settings, its logs) and appends
--                to its logs (signer_log, signer_por_log), nothing else.
-- Roles belong to the whole server while migrations run per database, several at once on one
-- server (tests): a role another database's migration made meanwhile is taken as it is. A
-- managed server whose owner may not create roles has them made beforehand (docs/deployment.md).
DO $$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['hope_app', 'hope_signer'] LOOP
    CONTINUE WHEN EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r);
    BEGIN
      EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION', r);
    EXCEPTION
      WHEN duplicate_object OR unique_violation THEN NULL;
      WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'the role % does not exist and this user may not create it', r
          USING HINT = 'create hope_app and hope_signer as docs/deployment.md shows, then start again';
    END;
  END LOOP;
END $$;

-- Nobody but the owner adds to the schema (PostgreSQL before 15 let every role create there).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO hope_app, hope_signer;

-- The app: every table, sequence and function there is now, and those later migrations make
-- (default privileges of the owner that runs them).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO hope_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO hope_app;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO hope_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO hope_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public
  GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO hope_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public
  GRANT EXECUTE ON FUNCTIONS TO hope_app;

-- Which migrations ran is the owner's record.
REVOKE INSERT, UPDATE, DELETE ON schema_migrations FROM hope_app;

-- A table only the signer writes: the app may read it, the signer reads it and appends to it,
-- nobody else changes it. The signer's caps count its rows, so a row the app could delete would
-- give the caps back. A migration that makes such a table calls this right after creating it
-- (the default privileges above have just given the app its writes there).
CREATE FUNCTION signer_appends_to(t regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  seq text;
BEGIN
  EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON %s FROM hope_app', t);
  EXECUTE format('GRANT SELECT ON %s TO hope_app', t);
  EXECUTE format('GRANT SELECT, INSERT ON %s TO hope_signer', t);
  FOR seq IN
    SELECT pg_get_serial_sequence(t::text, a.attname)
    FROM pg_attribute a
    WHERE a.attrelid = t AND a.attnum > 0 AND NOT a.attisdropped
      AND pg_get_serial_sequence(t::text, a.attname) IS NOT NULL
  LOOP
    EXECUTE format('REVOKE ALL ON SEQUENCE %s FROM hope_app', seq);
    EXECUTE format('GRANT USAGE ON SEQUENCE %s TO hope_signer', seq);
  END LOOP;
END $$;
REVOKE EXECUTE ON FUNCTION signer_appends_to(regclass) FROM PUBLIC, hope_app;

SELECT signer_appends_to('signer_log');
SELECT signer_appends_to('signer_por_log');

-- What the signer reads to decide: the withdrawal it pays and the chain's settings.
GRANT SELECT ON withdrawals, settings TO hope_signer;
