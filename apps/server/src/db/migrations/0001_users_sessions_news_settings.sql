CREATE TABLE users (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_name     text NOT NULL UNIQUE CHECK (user_name = lower(user_name)),
  nick_name     text NOT NULL,
  image         text NOT NULL DEFAULT '',
  referral_code text NOT NULL UNIQUE CHECK (referral_code = upper(referral_code)),
  level         smallint NOT NULL DEFAULT 0 CHECK (level BETWEEN 0 AND 7),
  game_points   numeric(38, 18) NOT NULL DEFAULT 0,
  inviter_id    bigint REFERENCES users (id),
  location      smallint NOT NULL DEFAULT 1 CHECK (location BETWEEN 1 AND 3),
  is_robot      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_inviter_idx ON users (inviter_id);

CREATE TABLE sessions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id),
  token_hash  bytea NOT NULL UNIQUE,
  -- hash of (address, signed message): one signed pair opens at most one live session
  pair_hash   bytea NOT NULL,
  ip          text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE UNIQUE INDEX sessions_live_pair_idx ON sessions (pair_hash) WHERE revoked_at IS NULL;
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE news (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  type         smallint NOT NULL DEFAULT 1,
  title        text NOT NULL,
  summary      text NOT NULL DEFAULT '',
  content      text NOT NULL DEFAULT '',
  image        text NOT NULL DEFAULT '',
  published    boolean NOT NULL DEFAULT true,
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX news_published_idx ON news (published_at DESC, id DESC) WHERE published;

CREATE TABLE settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL
);

CREATE TABLE setting_changes (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key        text NOT NULL,
  old_value  jsonb,
  new_value  jsonb NOT NULL,
  changed_by text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
