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

/** Where the scan named `name` stopped on a chain: the last block it read, and that block's hash. */
export async function readCheckpoint(
  q: Queryable,
  name: string,
  chainId: number,
): Promise<{ block: bigint; blockHash: string | null } | null> {
  const res = await q.query<{ block: string; block_hash: string | null }>(
    'SELECT block::text, block_hash FROM chain_scan_checkpoints WHERE name = $1 AND chain_id = $2',
    [name, chainId],
  )
  const row = res.rows[0]
  return row ? { block: BigInt(row.block), blockHash: row.block_hash } : null
}

export async function saveCheckpoint(
  q: Queryable,
  name: string,
  chainId: number,
  block: bigint,
  blockHash: string | null,
): Promise<void> {
  await q.query(
    `INSERT INTO chain_scan_checkpoints (name, chain_id, block, block_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name, chain_id) DO UPDATE SET block = $3, block_hash = $4, updated_at = now()`,
    [name, chainId, String(block), blockHash],
  )
}

/** An open alarm the chain scan raised: what it found, with the amount as decimal text. */
export interface ChainAlarm {
  kind: string
  message: string
  txHash: string
  amount: string
}

/** The open alarms of `kinds` raised for `chainId`, oldest first. */
export async function listOpenChainAlarms(
  q: Queryable,
  chainId: number,
  kinds: readonly string[],
): Promise<ChainAlarm[]> {
  const res = await q.query<ChainAlarm>(
    `SELECT kind, message, coalesce(detail->>'txHash', '') AS "txHash",
            coalesce(detail->>'amount', '0') AS amount
       FROM operator_alarms
      WHERE resolved_at IS NULL AND kind = ANY ($1::text[]) AND detail->>'chainId' = $2
      ORDER BY id`,
    [kinds, String(chainId)],
  )
  return res.rows
}
