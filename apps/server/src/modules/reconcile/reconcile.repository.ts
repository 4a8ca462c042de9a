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

/** What the completed withdrawals (2) on `chainId` paid, summed by PostgreSQL. */
export async function sumCompletedWithdrawals(q: Queryable, chainId: number): Promise<string> {
  const res = await q.query<{ v: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS v FROM withdrawals WHERE chain_id = $1 AND status = 2`,
    [chainId],
  )
  return res.rows[0]?.v ?? '0'
}

/**
 * Withdrawals approved for payment, or paid, without the reservation the request made in the
 * ledger: their amount moved by a pending transfer from the user's USDT account to the
 * withdrawals in flight. A row written around the withdrawal service (a forged approval) has
 * none. Open ones (1, 5) and those completed within two days: a forgery is paid within minutes.
 */
export async function unreservedWithdrawals(
  q: Queryable,
  chainId: number,
): Promise<{ count: number; amount: string }> {
  const res = await q.query<{ n: number; v: string }>(
    `SELECT count(*)::int AS n, coalesce(sum(w.amount), 0)::text AS v
     FROM withdrawals w
     LEFT JOIN ledger_transfers t ON t.id = w.amount_transfer_id
     LEFT JOIN ledger_accounts d ON d.id = t.debit_account_id
     LEFT JOIN ledger_accounts c ON c.id = t.credit_account_id
     WHERE w.chain_id = $1
       AND (w.status IN (1, 5) OR (w.status = 2 AND w.updated_at > now() - interval '2 days'))
       AND (t.kind = 'pending' AND t.amount = w.amount AND t.currency = 'USDT'
            AND d.user_id = w.user_id AND d.kind = 'usdt'
            AND c.user_id IS NULL AND c.kind = 'withdrawals_in_flight') IS NOT TRUE`,
    [chainId],
  )
  return { count: res.rows[0]!.n, amount: res.rows[0]!.v }
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
