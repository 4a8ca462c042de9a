-- Proofs of liabilities built on request instead of stored per user: each snapshot keeps its
-- tree once (the leaves, padding included, and the upper levels once they are small, in chunks
-- of packed nodes) and its accounts in address order with the positions of their parts. A
-- user's proof is rebuilt from the few chunks its paths touch and the snapshot's secret, which
-- salts the leaves and is stored sealed (AES-256-GCM, POR_SEAL_KEY) so the database alone
-- reveals no salt. All of it goes at the retention days (setting porRetentionDays).
-- por_proofs stays for the proofs of snapshots taken before.

-- The number of leaves the tree has, padding leaves included (null before it was kept).
ALTER TABLE por_snapshots ADD COLUMN leaf_count integer CHECK (leaf_count >= 0);

CREATE TABLE por_trees (
  snapshot_id bigint PRIMARY KEY REFERENCES por_snapshots (id) ON DELETE CASCADE,
  -- the per-snapshot secret, sealed and bound to the snapshot id
  secret      text NOT NULL,
  height      smallint NOT NULL CHECK (height BETWEEN 1 AND 32),
  -- the levels kept whole besides the leaves: stored_from .. height
  stored_from smallint NOT NULL CHECK (stored_from BETWEEN 1 AND height),
  -- the signed reserve statements each proof file carries, as taken with the snapshot
  reserves    jsonb NOT NULL
);

-- Consecutive occupied nodes of one level (0: the leaves), sorted by index: 68 bytes each
-- (index u32, hash, USDT sum u128, HOPE sum u128).
CREATE TABLE por_tree_nodes (
  snapshot_id bigint NOT NULL REFERENCES por_trees (snapshot_id) ON DELETE CASCADE,
  level       smallint NOT NULL CHECK (level BETWEEN 0 AND 32),
  first_index bigint NOT NULL CHECK (first_index >= 0),
  nodes       bytea NOT NULL,
  PRIMARY KEY (snapshot_id, level, first_index)
);

-- Consecutive accounts in address order: 33 bytes each (address, part count, three positions).
CREATE TABLE por_tree_accounts (
  snapshot_id   bigint NOT NULL REFERENCES por_trees (snapshot_id) ON DELETE CASCADE,
  first_address bytea NOT NULL,
  accounts      bytea NOT NULL,
  PRIMARY KEY (snapshot_id, first_address)
);
