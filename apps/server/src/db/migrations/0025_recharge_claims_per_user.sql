-- A posted recharge hash is a claim of one user: anyone may post any hash, so a hash held by
-- the first poster let a stranger who saw it in the mempool lock its owner out. Each user's
-- claim stands on its own; the watcher credits the deposit to the sender's account once per
-- (chain id, tx hash, log index) and fails every other user's claim of that hash.
ALTER TABLE recharge_claims
  DROP CONSTRAINT recharge_claims_chain_id_tx_hash_key,
  ADD CONSTRAINT recharge_claims_chain_id_tx_hash_user_id_key UNIQUE (chain_id, tx_hash, user_id);
