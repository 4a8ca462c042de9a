-- The split HOPE each user bought per settlement day (local date of the purchase). A day's
-- settlement releases only what was bought by the end of that day: its base is the grant's
-- total less the HOPE bought on later days. Grants made before this table count as bought
-- before any day still to settle.
CREATE TABLE split_grant_days (
  user_id bigint  NOT NULL REFERENCES users (id),
  day     date    NOT NULL,
  hope    numeric(38, 18) NOT NULL CHECK (hope > 0),
  PRIMARY KEY (user_id, day)
);
