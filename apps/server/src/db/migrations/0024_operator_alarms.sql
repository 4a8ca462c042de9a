-- Conditions a job found and cannot settle by itself, for operators to look at (e.g. a payout
-- whose nonce another transaction of the hot wallet took). One row per key: a job finding the
-- same condition again on its next tick raises nothing new. A job that sees the condition end
-- sets resolved_at; the console shows the open ones.
CREATE TABLE operator_alarms (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key         text NOT NULL UNIQUE,
  kind        text NOT NULL,
  message     text NOT NULL,
  detail      jsonb NOT NULL DEFAULT '{}',
  raised_at   timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE INDEX operator_alarms_open_idx ON operator_alarms (raised_at DESC) WHERE resolved_at IS NULL;
