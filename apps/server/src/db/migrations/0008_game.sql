-- HOPE sold so far: the stage and the real-time price follow from it (DESIGN §6). One row,
-- locked by every purchase so two purchases never buy the same stage room.
CREATE TABLE token_sale (
  id   smallint PRIMARY KEY CHECK (id = 1),
  sold numeric(38, 18) NOT NULL CHECK (sold >= 0)
);
INSERT INTO token_sale (id, sold)
  SELECT 1, greatest(0, -coalesce(sum(balance), 0)) FROM ledger_accounts
   WHERE user_id IS NULL AND kind = 'hope_supply' AND currency = 'HOPE';

-- Consensus positions: the HOPE one entry bought (held in the stake pool) and the USDT value
-- released from it so far. `settled_through` is the last settlement day that paid it.
CREATE TABLE stake_positions (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users (id),
  principal       numeric(38, 18) NOT NULL CHECK (principal > 0),
  hope            numeric(38, 18) NOT NULL CHECK (hope >= 0),
  price           numeric(38, 18) NOT NULL CHECK (price > 0),
  released        numeric(38, 18) NOT NULL DEFAULT 0 CHECK (released >= 0),
  cap             numeric(38, 18) NOT NULL CHECK (cap > 0),
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'out')),
  request_key     text COLLATE "C" NOT NULL UNIQUE,
  settled_through date,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (released <= cap)
);
CREATE INDEX stake_positions_user_idx ON stake_positions (user_id, id DESC);
CREATE INDEX stake_positions_active_idx ON stake_positions (id) WHERE status = 'active';

-- Pledge items: the pledged part of a redemption, released back to the community account.
CREATE TABLE pledge_items (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users (id),
  amount          numeric(38, 18) NOT NULL CHECK (amount > 0),
  released        numeric(38, 18) NOT NULL DEFAULT 0 CHECK (released >= 0),
  redeemed        boolean NOT NULL DEFAULT false,
  request_key     text COLLATE "C" NOT NULL UNIQUE,
  settled_through date,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (released <= amount)
);
CREATE INDEX pledge_items_user_idx ON pledge_items (user_id, id DESC);
CREATE INDEX pledge_items_open_idx ON pledge_items (id) WHERE NOT redeemed;

-- One row per settlement day: its progress and totals.
CREATE TABLE settlement_runs (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  day            date NOT NULL UNIQUE,
  status         text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done')),
  positions      integer NOT NULL DEFAULT 0,
  pledges        integer NOT NULL DEFAULT 0,
  consensus_hope numeric(38, 18) NOT NULL DEFAULT 0,
  pledge_hope    numeric(38, 18) NOT NULL DEFAULT 0,
  started_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);
