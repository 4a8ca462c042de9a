import type { Queryable } from '../../db/transaction.ts'

// What the books say, as decimal text, for the reconciliation with the chain.

/** Deposits recorded up to `block` (those reorged away aside). */
export async function sumRecordedDeposits(
  q: Queryable,
  chainId: number,
  block: string,
): Promise<string> {
  const res = await q.query<{ v: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS v FROM deposits WHERE chain_id = $1 AND status <> 'reorged' AND block_number <= $2`,
    [chainId, block],
  )
  return res.rows[0]?.v ?? '0'
}

export async function sumCreditedDeposits(q: Queryable, chainId: number): Promise<string> {
  const res = await q.query<{ v: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS v FROM deposits WHERE chain_id = $1 AND status = 'credited'`,
    [chainId],
  )
  return res.rows[0]?.v ?? '0'
}

/** What the platform's chain deposits account issued: the negative of its balance. */
export async function chainDepositsIssued(q: Queryable): Promise<string> {
  const res = await q.query<{ v: string }>(
    `SELECT (-coalesce(sum(balance), 0))::text AS v FROM ledger_accounts WHERE user_id IS NULL AND kind = 'chain_deposits' AND currency = 'USDT'`,
  )
  return res.rows[0]?.v ?? '0'
}

/** The balance of the platform's withdrawals-in-flight account. */
export async function withdrawalsInFlight(q: Queryable): Promise<string> {
  const res = await q.query<{ v: string }>(
    `SELECT coalesce(sum(balance), 0)::text AS v FROM ledger_accounts WHERE user_id IS NULL AND kind = 'withdrawals_in_flight' AND currency = 'USDT'`,
  )
  return res.rows[0]?.v ?? '0'
}

/** Withdrawals paid on chain: confirmed (5) or completed (2). */
export async function listPaidWithdrawals(
  q: Queryable,
  chainId: number,
): Promise<{ tx: string; amount: string; status: number }[]> {
  const res = await q.query<{ tx: string; amount: string; status: number }>(
    `SELECT tx_hash AS tx, amount::text, status FROM withdrawals WHERE chain_id = $1 AND status IN (2, 5)`,
    [chainId],
  )
  return res.rows
}
