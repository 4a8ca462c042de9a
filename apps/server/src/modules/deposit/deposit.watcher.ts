import { formatAmount } from '@hope/api'
import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { parseAbiItem, type Address, type PublicClient } from 'viem'
import { blockOrNull, receiptOrNull } from '../../chain/chain.reads.ts'
import { amountBound } from '../../lib/amount-bound.ts'
import { raiseAlarm } from '../alarm/alarm.repository.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { depositAmountVerdict } from './deposit.amount.rules.ts'
import {
  canMoveDeposit,
  commonAncestor,
  isConfirmed,
  nextRange,
  type DepositStatus,
} from './deposit.rules.ts'

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)
const LOCK_KEY = 7_001_013
const SCAN_BATCH = 2_000n
/** Blocks kept with their hashes below the confirmation depth, to walk a reorg back. */
const HASH_WINDOW = 64n
const USDT_DECIMALS = 6

interface TransferLog {
  transactionHash: string
  logIndex: number
  blockNumber: bigint
  blockHash: string
  from: string
  value: bigint
}

export interface TickReport {
  skipped?: 'locked' | 'not_configured'
  head?: bigint
  scannedTo?: bigint
  seen: number
  credited: number
  reorged: number
  /** Deposits recorded as failed (not credited), e.g. past the amount bound. */
  failed: number
  failedClaims?: number
}

/** The alarm raised for a deposit the watcher refused to credit. */
const refusedDepositKey = (depositId: number) => `deposit-refused:${depositId}`

/**
 * Credits USDT deposits: scans Transfer logs of the configured token to the deposit address,
 * holds each as a pending ledger transfer (chain deposits → the sender's USDT account, log 12)
 * until the confirmation depth, then posts it once per (chain id, tx hash, log index). A reorg
 * found through the stored block hashes voids what it dropped; a re-included deposit is held
 * and credited again from the start. One process runs a tick at a time (advisory lock).
 * A deposit past the operators' USDT bound per amount is never credited: it is recorded as
 * failed, raises an operator alarm, and the deposits after it go on being credited.
 */
export function createDepositWatcher(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  client: PublicClient
  chainId: number
  log?: (msg: string, extra?: unknown) => void
  /** Where what operators must act on is reported (error level); `log` when not given. */
  logError?: (msg: string, extra?: unknown) => void
}) {
  const { pool, ledger, settings, client, chainId } = deps
  const log = deps.log ?? (() => {})
  const logError = deps.logError ?? log

  async function move(
    q: pg.PoolClient,
    id: number,
    from: DepositStatus,
    to: DepositStatus,
    set = '',
  ): Promise<void> {
    if (!canMoveDeposit(from, to)) throw new Error(`deposit ${id}: ${from} → ${to} is not allowed`)
    await q.query(
      `UPDATE deposits SET status = $2, updated_at = now() ${set} WHERE id = $1 AND status = $3`,
      [id, to, from],
    )
  }

  async function walkBackReorg(q: pg.PoolClient): Promise<number> {
    const stored = await q.query<{ number: string; hash: string }>(
      'SELECT b.number::text AS number, b.hash FROM chain_blocks b WHERE b.chain_id = $1 ORDER BY b.number DESC LIMIT $2',
      [chainId, Number(HASH_WINDOW)],
    )
    if (!stored.rows.length) return 0
    const storedMap = new Map(stored.rows.map((r) => [BigInt(r.number), r.hash]))
    const top = BigInt(stored.rows[0]!.number)
    // A block the node says it lacks is a reorg to a shorter chain; a failed read throws out of
    // the tick, so nothing is voided or rewound on an RPC error.
    const topBlock = await blockOrNull(client, top)
    if (topBlock?.hash?.toLowerCase() === stored.rows[0]!.hash.toLowerCase()) return 0

    const chainMap = new Map<bigint, string>()
    for (const n of storedMap.keys()) {
      const b = await blockOrNull(client, n)
      if (b?.hash) chainMap.set(n, b.hash)
    }
    const lowest = BigInt(stored.rows.at(-1)!.number)
    const ancestor = commonAncestor(storedMap, chainMap) ?? lowest - 1n
    log('chain reorganisation found', { chainId, ancestor: String(ancestor) })

    const dropped = await q.query<{ id: number; pending: string; status: DepositStatus }>(
      `SELECT id::int, pending_transfer_id::text AS pending, status FROM deposits
       WHERE chain_id = $1 AND block_number > $2 AND status IN ('on_chain', 'credited')`,
      [chainId, String(ancestor)],
    )
    let reorged = 0
    for (const d of dropped.rows) {
      if (d.status === 'credited') {
        // Deeper than the confirmation depth: the ledger keeps the credit; operators must look.
        log('a credited deposit was reorganised away', { depositId: d.id })
        continue
      }
      await ledger.apply(
        `deposit-void:${d.id}:${d.pending}`,
        { void: d.pending },
        [{ kind: 'void_pending', pending: Number(d.pending) }],
        q,
      )
      await move(q, d.id, 'on_chain', 'reorged', ', pending_transfer_id = NULL')
      reorged += 1
    }
    await q.query('DELETE FROM chain_blocks WHERE chain_id = $1 AND number > $2', [
      chainId,
      String(ancestor),
    ])
    await q.query(
      'UPDATE chain_cursors SET block_number = LEAST(block_number, $2) WHERE chain_id = $1',
      [chainId, String(ancestor)],
    )
    return reorged
  }

  async function hold(
    q: pg.PoolClient,
    row: { id: number },
    userId: number,
    amount: string,
    blockHash: string,
  ): Promise<void> {
    const accounts = await ledger.userAccountIds(userId)
    const source = await ledger.platformAccount('chain_deposits', 'USDT')
    const outcome = await ledger.apply(
      `deposit-hold:${row.id}:${blockHash}`,
      { deposit: row.id, blockHash, amount },
      [
        {
          kind: 'pending',
          debit: source,
          credit: accounts.usdt,
          amount,
          logType: 12,
          ref: `deposit:${row.id}`,
        },
      ],
      q,
    )
    await q.query('UPDATE deposits SET pending_transfer_id = $2 WHERE id = $1', [
      row.id,
      outcome.transfers[0],
    ])
  }

  /**
   * Records a deposit that must not be credited as failed with `reason` (a reorged row keeps its
   * id), fails the sender's own claim of the hash, and raises an alarm once per deposit.
   */
  async function refuse(
    q: pg.PoolClient,
    l: TransferLog,
    token: string,
    exact: string,
    userId: number | null,
    found: { id: number } | undefined,
    reason: string,
    bound: string,
  ): Promise<void> {
    const txHash = l.transactionHash.toLowerCase()
    let id: number
    if (found) {
      await q.query(
        `UPDATE deposits SET status = 'failed', failure = $2, block_number = $3, block_hash = $4, updated_at = now()
         WHERE id = $1 AND status = 'reorged'`,
        [found.id, reason, String(l.blockNumber), l.blockHash],
      )
      id = found.id
    } else {
      const inserted = await q.query<{ id: number }>(
        `INSERT INTO deposits (chain_id, tx_hash, log_index, block_number, block_hash, token, from_address, amount, user_id, status, failure)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'failed', $10) RETURNING id::int`,
        [
          chainId,
          txHash,
          l.logIndex,
          String(l.blockNumber),
          l.blockHash,
          token,
          l.from.toLowerCase(),
          exact,
          userId,
          reason,
        ],
      )
      id = inserted.rows[0]!.id
    }
    if (userId)
      await q.query(
        `UPDATE recharge_claims SET status = 'failed', failure = $4
         WHERE chain_id = $1 AND tx_hash = $2 AND user_id = $3 AND status = 'on_chain'`,
        [chainId, txHash, userId, reason],
      )
    const detail = {
      depositId: id,
      reason,
      txHash,
      logIndex: l.logIndex,
      from: l.from.toLowerCase(),
      userId,
      amount: exact,
      maxAmountUsdt: bound,
    }
    const raised = await raiseAlarm(q, {
      key: refusedDepositKey(id),
      kind: 'deposit_amount_too_large',
      message:
        `Deposit ${id}: ${exact} USDT in ${txHash} (log ${l.logIndex}) from ${detail.from} is ` +
        `above the bound of ${bound} USDT per amount (maxAmountUsdt). It was recorded as failed ` +
        `and not credited; an operator must settle it.`,
      detail,
    })
    if (raised) logError('deposit above the amount bound recorded as failed, not credited', detail)
  }

  async function record(
    q: pg.PoolClient,
    l: TransferLog,
    token: string,
    decimals: number,
    bound: { text: string; units: bigint },
  ): Promise<'held' | 'failed' | null> {
    const exact = formatAmount(l.value, decimals)
    const verdict = depositAmountVerdict(l.value, decimals, bound.units)
    const user = await q.query<{ id: number }>('SELECT id::int FROM users WHERE user_name = $1', [
      l.from.toLowerCase(),
    ])
    const userId = user.rows[0]?.id
    const existing = await q.query<{ id: number; status: DepositStatus }>(
      'SELECT id::int, status FROM deposits WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 FOR UPDATE',
      [chainId, l.transactionHash.toLowerCase(), l.logIndex],
    )
    const found = existing.rows[0]
    if (found && found.status !== 'reorged') return null
    // Judged at every hold: a re-included deposit is held anew under the current bound.
    if (!verdict.creditable) {
      await refuse(q, l, token, exact, userId ?? null, found, verdict.reason, bound.text)
      return 'failed'
    }
    // The ledger keeps USDT to 6 decimals; finer dust of an 18-decimal token stays on chain.
    const credit = formatAmount(verdict.credit, USDT_DECIMALS)
    if (!userId || credit === '0') {
      if (!found) {
        await q.query(
          `INSERT INTO deposits (chain_id, tx_hash, log_index, block_number, block_hash, token, from_address, amount, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'unattributed')`,
          [
            chainId,
            l.transactionHash.toLowerCase(),
            l.logIndex,
            String(l.blockNumber),
            l.blockHash,
            token,
            l.from.toLowerCase(),
            exact,
          ],
        )
      }
      return null
    }
    let row: { id: number }
    if (found) {
      await move(q, found.id, 'reorged', 'on_chain')
      await q.query('UPDATE deposits SET block_number = $2, block_hash = $3 WHERE id = $1', [
        found.id,
        String(l.blockNumber),
        l.blockHash,
      ])
      row = found
    } else {
      const inserted = await q.query<{ id: number }>(
        `INSERT INTO deposits (chain_id, tx_hash, log_index, block_number, block_hash, token, from_address, amount, user_id, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'on_chain') RETURNING id::int`,
        [
          chainId,
          l.transactionHash.toLowerCase(),
          l.logIndex,
          String(l.blockNumber),
          l.blockHash,
          token,
          l.from.toLowerCase(),
          exact,
          userId,
        ],
      )
      row = inserted.rows[0]!
    }
    await hold(q, row, userId, credit, l.blockHash)
    return 'held'
  }

  async function creditConfirmed(
    q: pg.PoolClient,
    head: bigint,
    confirmations: number,
  ): Promise<number> {
    const open = await q.query<{ id: number; block: string; pending: string }>(
      `SELECT id::int, block_number::text AS block, pending_transfer_id::text AS pending FROM deposits
       WHERE chain_id = $1 AND status = 'on_chain' ORDER BY id FOR UPDATE`,
      [chainId],
    )
    let credited = 0
    for (const d of open.rows) {
      if (!isConfirmed(BigInt(d.block), head, confirmations)) continue
      await ledger.apply(
        `deposit-post:${d.id}:${d.pending}`,
        { post: d.pending },
        [{ kind: 'post_pending', pending: Number(d.pending) }],
        q,
      )
      await move(q, d.id, 'on_chain', 'credited')
      credited += 1
    }
    return credited
  }

  /**
   * Posted recharge hashes the scan has passed without crediting this user: reverted, not a
   * transfer of the token to the deposit address, or sent from another wallet → failed.
   */
  async function settleClaims(q: pg.PoolClient, scannedTo: bigint): Promise<number> {
    const open = await q.query<{ id: number; userId: number; txHash: string; old: boolean }>(
      `SELECT c.id::int, c.user_id::int AS "userId", c.tx_hash AS "txHash", c.created_at < now() - interval '1 day' AS old
       FROM recharge_claims c
       WHERE c.chain_id = $1 AND c.status = 'on_chain'
         AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.chain_id = c.chain_id AND d.tx_hash = c.tx_hash AND d.user_id = c.user_id)
       ORDER BY c.id LIMIT 200`,
      [chainId],
    )
    let failed = 0
    for (const claim of open.rows) {
      // Only the node's "no such receipt" counts as not found; a failed read is retried.
      const receipt = await receiptOrNull(client, claim.txHash)
      let failure: string | null = null
      if (!receipt) failure = claim.old ? 'not found on chain' : null
      else if (receipt.status !== 'success') failure = 'reverted'
      else if (receipt.blockNumber <= scannedTo) {
        const other = await q.query('SELECT 1 FROM deposits WHERE chain_id = $1 AND tx_hash = $2', [
          chainId,
          claim.txHash,
        ])
        failure = other.rowCount
          ? 'sent from another wallet'
          : 'not a transfer of the token to the deposit address'
      }
      if (!failure) continue
      await q.query(
        `UPDATE recharge_claims SET status = 'failed', failure = $2 WHERE id = $1 AND status = 'on_chain'`,
        [claim.id, failure],
      )
      failed += 1
    }
    return failed
  }

  async function tick(): Promise<TickReport> {
    const report: TickReport = { seen: 0, credited: 0, reorged: 0, failed: 0 }
    const s = await settings.get()
    if (!s.chainTokenAddress || !s.chainDepositAddress)
      return { ...report, skipped: 'not_configured' }
    const ran = await withAdvisoryLock(pool, [LOCK_KEY, chainId], async (q) => {
      try {
        await q.query('BEGIN')
        report.reorged = await walkBackReorg(q)
        await q.query('COMMIT')

        const head = await client.getBlockNumber({ cacheTime: 0 })
        report.head = head
        const cursorRow = await q.query<{ n: string }>(
          'SELECT block_number::text AS n FROM chain_cursors WHERE chain_id = $1',
          [chainId],
        )
        const cursor = cursorRow.rows[0]
          ? BigInt(cursorRow.rows[0].n)
          : head > 5_000n
            ? head - 5_000n
            : -1n
        const range = nextRange(cursor, head, SCAN_BATCH)
        await q.query('BEGIN')
        if (range) {
          const logs = await client.getLogs({
            address: s.chainTokenAddress as Address,
            event: TRANSFER,
            args: { to: s.chainDepositAddress as Address },
            fromBlock: range.from,
            toBlock: range.to,
          })
          const bound = amountBound(s, 'USDT')
          for (const l of logs) {
            if (l.address.toLowerCase() !== s.chainTokenAddress.toLowerCase() || l.removed) continue
            // A zero-value transfer (anyone can send one) moves nothing and has nothing to record.
            if (l.args.value === 0n) continue
            const outcome = await record(
              q,
              {
                transactionHash: l.transactionHash!,
                logIndex: l.logIndex!,
                blockNumber: l.blockNumber!,
                blockHash: l.blockHash!,
                from: l.args.from!,
                value: l.args.value!,
              },
              s.chainTokenAddress.toLowerCase(),
              s.chainTokenDecimals,
              bound,
            )
            if (outcome === 'held') report.seen += 1
            if (outcome === 'failed') report.failed += 1
          }
          // Remember the hashes of the recent blocks scanned, to notice a reorg next time.
          const windowFrom =
            range.to - HASH_WINDOW + 1n > range.from ? range.to - HASH_WINDOW + 1n : range.from
          for (let n = windowFrom; n <= range.to; n++) {
            const b = await client.getBlock({ blockNumber: n })
            await q.query(
              `INSERT INTO chain_blocks (chain_id, number, hash) VALUES ($1, $2, $3)
               ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash`,
              [chainId, String(n), b.hash],
            )
          }
          await q.query(
            `INSERT INTO chain_cursors (chain_id, block_number) VALUES ($1, $2)
             ON CONFLICT (chain_id) DO UPDATE SET block_number = EXCLUDED.block_number`,
            [chainId, String(range.to)],
          )
          await q.query('DELETE FROM chain_blocks WHERE chain_id = $1 AND number < $2', [
            chainId,
            String(range.to - HASH_WINDOW),
          ])
          report.scannedTo = range.to
        }
        report.credited = await creditConfirmed(q, head, s.chainConfirmations)
        const scanned = await q.query<{ n: string }>(
          'SELECT block_number::text AS n FROM chain_cursors WHERE chain_id = $1',
          [chainId],
        )
        if (scanned.rows[0]) report.failedClaims = await settleClaims(q, BigInt(scanned.rows[0].n))
        await q.query('COMMIT')
      } catch (e) {
        await q.query('ROLLBACK').catch(() => {})
        throw e
      }
    })
    if (ran === null) return { ...report, skipped: 'locked' }
    return report
  }

  return { tick }
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>
