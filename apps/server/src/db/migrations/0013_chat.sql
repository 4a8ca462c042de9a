-- Support chat: one conversation per user, its messages, and how far each side has read.
CREATE TABLE chat_conversations (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id          bigint NOT NULL UNIQUE REFERENCES users (id),
  last_message_id  bigint,
  -- read markers: the last message id each side has seen (0: nothing yet)
  user_read_id     bigint NOT NULL DEFAULT 0,
  operator_read_id bigint NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_conversations_recent_idx ON chat_conversations (last_message_id DESC)
  WHERE last_message_id IS NOT NULL;

-- A message is written under its conversation's row lock, so ids grow in commit order within a
-- conversation and keyset paging by id never skips one. `client_id` is the sender's own id: a
-- resend after a reconnect finds the stored message instead of writing a second one.
CREATE TABLE chat_messages (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES chat_conversations (id),
  sender          text NOT NULL CHECK (sender IN ('user', 'operator')),
  operator_id     bigint REFERENCES operators (id),
  client_id       text NOT NULL CHECK (client_id ~ '^[A-Za-z0-9_-]{8,64}$'),
  body            text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 1000 AND body = btrim(body)),
  created_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((sender = 'operator') = (operator_id IS NOT NULL)),
  UNIQUE (conversation_id, sender, client_id)
);
CREATE INDEX chat_messages_conversation_idx ON chat_messages (conversation_id, id DESC);
