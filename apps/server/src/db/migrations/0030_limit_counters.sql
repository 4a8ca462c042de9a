-- Rate-limit and failure counters shared by every server process on this database when Redis
-- is not configured (or is down). UNLOGGED: no WAL per attempt; a crash may forget counts.
CREATE UNLOGGED TABLE IF NOT EXISTS limit_counters (
  key text PRIMARY KEY,
  count integer NOT NULL,
  start_ms bigint NOT NULL,
  last_ms bigint NOT NULL,
  expires_ms bigint NOT NULL
);
