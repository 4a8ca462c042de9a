-- Slots held across server processes when Redis is not configured (or is down): a user's chat
-- sockets, at most chatSocketsPerUser over every process. A slot lives until released or until
-- its expiry passes without a renewal (a crashed process's slots free themselves). UNLOGGED:
-- no WAL per socket; a database crash forgets them along with the connections they counted.
CREATE UNLOGGED TABLE IF NOT EXISTS limit_slots (
  key        text NOT NULL,
  slot       text NOT NULL,
  expires_ms bigint NOT NULL,
  PRIMARY KEY (key, slot)
);
