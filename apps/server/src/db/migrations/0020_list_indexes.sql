-- One account's log (the split screen, the account filter) is one range of this index, however
-- many entries the user's other accounts hold; the whole log merges the ranges of the user's
-- five accounts, so the (user_id, id) index goes and postings still maintain one index of
-- users' entries. Users' entries only: the platform side of every transfer adds nothing.
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, id DESC) WHERE user_id IS NOT NULL;
DROP INDEX ledger_entries_user_idx;

-- A member's direct invitees, newest first, a page at a time: one range, read in order.
CREATE INDEX users_inviter_id_idx ON users (inviter_id, id);
DROP INDEX users_inviter_idx;
