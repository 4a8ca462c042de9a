-- How many members each member invited directly: the direct-members list (groupZt) reads its
-- total here, one row, instead of counting the inviter's members on every page. Kept by
-- triggers on users, so every way of adding members (registration, seeds, bulk loads) counts.
CREATE TABLE direct_counts (
  user_id bigint PRIMARY KEY REFERENCES users (id),
  members bigint NOT NULL CHECK (members >= 0)
);

INSERT INTO direct_counts (user_id, members)
  SELECT inviter_id, count(*) FROM users WHERE inviter_id IS NOT NULL GROUP BY inviter_id;

-- One statement's new members, counted per inviter (a bulk insert updates each inviter once).
CREATE FUNCTION direct_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO direct_counts AS d (user_id, members)
    SELECT inviter_id, count(*) FROM new_users WHERE inviter_id IS NOT NULL
     GROUP BY inviter_id ORDER BY inviter_id
  ON CONFLICT (user_id) DO UPDATE SET members = d.members + excluded.members;
  RETURN NULL;
END $$;

CREATE TRIGGER users_direct_counts_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_users
  FOR EACH STATEMENT EXECUTE FUNCTION direct_counts_on_insert();

-- A member moved to another inviter (no screen does this; an operator's SQL might).
CREATE FUNCTION direct_counts_on_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.inviter_id IS NOT NULL THEN
    UPDATE direct_counts SET members = members - 1 WHERE user_id = OLD.inviter_id;
  END IF;
  IF NEW.inviter_id IS NOT NULL THEN
    INSERT INTO direct_counts AS d (user_id, members) VALUES (NEW.inviter_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET members = d.members + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER users_direct_counts_move AFTER UPDATE OF inviter_id ON users
  FOR EACH ROW WHEN (OLD.inviter_id IS DISTINCT FROM NEW.inviter_id)
  EXECUTE FUNCTION direct_counts_on_move();
