-- Price history for the quotes view: one row whenever a price changes (an operator sets the ETH
-- price, the configured feed answers with a new one, the HOPE sale stage moves on) and an hourly
-- sample of the current price. The newest ETH row is the ETH price.
CREATE TABLE price_points (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  symbol      text NOT NULL CHECK (symbol IN ('ETH', 'HOPE')),
  price       numeric(38, 18) NOT NULL CHECK (price > 0),
  source      text NOT NULL CHECK (source IN ('operator', 'feed', 'stage', 'sample', 'seed')),
  operator_id bigint REFERENCES operators (id),
  at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((source = 'operator') = (operator_id IS NOT NULL))
);
CREATE INDEX price_points_symbol_at_idx ON price_points (symbol, at, id);

-- The ranking as it stood on a day (in the settlement time zone): taken once per day by a job,
-- or by the first request of the day that finds none. Robots are never ranked.
CREATE TABLE ranking_snapshots (
  day      date NOT NULL,
  kind     text NOT NULL CHECK (kind IN ('inviters', 'performance')),
  taken_at timestamptz NOT NULL,
  PRIMARY KEY (day, kind)
);

CREATE TABLE ranking_entries (
  day     date NOT NULL,
  kind    text NOT NULL,
  rank    integer NOT NULL CHECK (rank > 0),
  user_id bigint NOT NULL REFERENCES users (id),
  value   numeric(38, 18) NOT NULL CHECK (value > 0),
  PRIMARY KEY (day, kind, rank),
  UNIQUE (day, kind, user_id),
  FOREIGN KEY (day, kind) REFERENCES ranking_snapshots (day, kind)
);
