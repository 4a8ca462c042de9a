-- Team statistics per user and placement partition (1 left, 2 central, 3 right): people in the
-- partition, consensus performance (USDT of consensus entries) and community performance (USDT
-- of membership and node purchases). Kept current by team_add in the same transaction as the
-- event, so a user's team is one indexed read at any depth of the tree.
CREATE TABLE team_stats (
  user_id   bigint NOT NULL REFERENCES users (id),
  partition smallint NOT NULL CHECK (partition BETWEEN 1 AND 3),
  people    integer NOT NULL DEFAULT 0,
  consensus numeric(38, 18) NOT NULL DEFAULT 0,
  community numeric(38, 18) NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, partition)
);

-- Adds to the stats of every upline of p_user, in the partition p_user sits in under each.
CREATE FUNCTION team_add(p_user bigint, p_people integer, p_consensus numeric, p_community numeric)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO team_stats AS s (user_id, partition, people, consensus, community)
  SELECT path.upline, child.location, p_people, p_consensus, p_community
    FROM users me
   CROSS JOIN LATERAL unnest(me.ancestor_ids) WITH ORDINALITY AS path (upline, i)
    JOIN users child ON child.id = coalesce(me.ancestor_ids[path.i + 1], me.id)
   WHERE me.id = p_user
   ORDER BY path.upline
  ON CONFLICT (user_id, partition) DO UPDATE
     SET people = s.people + excluded.people, consensus = s.consensus + excluded.consensus,
         community = s.community + excluded.community
$$;

CREATE FUNCTION users_join_team() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM team_add(NEW.id, 1, 0, 0);
  RETURN NULL;
END $$;
CREATE TRIGGER users_join_team AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION users_join_team();

-- The members already registered.
INSERT INTO team_stats (user_id, partition, people)
SELECT path.upline, child.location, count(*)
  FROM users me
 CROSS JOIN LATERAL unnest(me.ancestor_ids) WITH ORDINALITY AS path (upline, i)
  JOIN users child ON child.id = coalesce(me.ancestor_ids[path.i + 1], me.id)
 GROUP BY path.upline, child.location;

-- Nodes: bought in the app (rewards to the node account) or granted by operators after the
-- e-mail application (shareholder tiers; rewards to the shareholder account).
CREATE TABLE node_holders (
  user_id    bigint NOT NULL REFERENCES users (id),
  type       smallint NOT NULL CHECK (type BETWEEN 1 AND 3),
  source     text NOT NULL CHECK (source IN ('bought', 'granted')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, type)
);

-- HOPE bought into a user's split account, released linearly into the community account.
CREATE TABLE split_grants (
  user_id         bigint PRIMARY KEY REFERENCES users (id),
  total           numeric(38, 18) NOT NULL DEFAULT 0 CHECK (total >= 0),
  released        numeric(38, 18) NOT NULL DEFAULT 0 CHECK (released >= 0),
  settled_through date,
  CHECK (released <= total)
);

ALTER TABLE settlement_runs
  ADD COLUMN splits integer NOT NULL DEFAULT 0,
  ADD COLUMN split_hope numeric(38, 18) NOT NULL DEFAULT 0,
  ADD COLUMN node_usdt numeric(38, 18) NOT NULL DEFAULT 0;
