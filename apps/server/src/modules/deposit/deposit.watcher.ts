import { formatAmount, LOG_TYPE } from '@hope/api'
import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import { parseAbiItem, type Address, type PublicClient } from 'viem'
import { blockOrNull, receiptOrNull } from '../../chain/chain.reads.ts'
import { amountBound } from '../../lib/amount-bound.ts'
import { raiseAlarm } from '../alarm/alarm.service.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import * as claims from '../recharge/recharge.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { findUserIdByName } from '../user/user.service.ts'
import { depositAmountVerdict } from './deposit.amount.rules.ts'
import * as repo from './deposit.repository.ts'
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

  const sighting = (l: TransferLog, token: string, amount: string): repo.DepositSighting => ({
    chainId,
    txHash: l.transactionHash.toLowerCase(),
    logIndex: l.logIndex,
    blockNumber: l.blockNumber,
    blockHash: l.blockHash,
    token,
    fromAddress: l.from.toLowerCase(),
    amount,
  })

  async function move(
    q: pg.PoolClient,
    id: number,
    from: DepositStatus,
    to: DepositStatus,
    opts: { clearPending?: boolean } = {},
  ): Promise<void> {
    if (!canMoveDeposit(from, to)) throw new Error(`deposit ${id}: ${from} → ${to} is not allowed`)
    await repo.moveDeposit(q, id, from, to, opts)
  }

  async function walkBackReorg(q: pg.PoolClient): Promise<number> {
    const stored = await repo.listRecentBlocks(q, chainId, Number(HASH_WINDOW))
    if (!stored.length) return 0
    const storedMap = new Map(stored.map((r) => [r.number, r.hash]))
    const top = stored[0]!.number
    // A block the node says it lacks is a reorg to a shorter chain; a failed read throws out of
    // the tick, so nothing is voided or rewound on an RPC error.
    const topBlock = await blockOrNull(client, top)
    if (topBlock?.hash?.toLowerCase() === stored[0]!.hash.toLowerCase()) return 0

    const chainMap = new Map<bigint, string>()
    for (const n of storedMap.keys()) {
      const b = await blockOrNull(client, n)
      if (b?.hash) chainMap.set(n, b.hash)
    }
    const lowest = stored.at(-1)!.number
    const ancestor = commonAncestor(storedMap, chainMap) ?? lowest - 1n
    log('chain reorganisation found', { chainId, ancestor: String(ancestor) })

    const dropped = await repo.listDepositsAbove(q, chainId, ancestor)
    let reorged = 0
    for (const d of dropped) {
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
      await move(q, d.id, 'on_chain', 'reorged', { clearPending: true })
      reorged += 1
    }
    await repo.rewindTo(q, chainId, ancestor)
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
          logType: LOG_TYPE.recharge,
          ref: `deposit:${row.id}`,
        },
      ],
      q,
    )
    await repo.setPendingTransfer(q, row.id, outcome.transfers[0]!)
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
      await repo.failReorgedDeposit(q, found.id, reason, {
        number: l.blockNumber,
        hash: l.blockHash,
      })
      id = found.id
    } else {
      id = await repo.insertDeposit(q, sighting(l, token, exact), {
        status: 'failed',
        userId,
        failure: reason,
      })
    }
    if (userId) await claims.failClaimOfUser(q, { chainId, txHash, userId }, reason)
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
    const userId = await findUserIdByName(q, l.from.toLowerCase())
    const found = await repo.lockDeposit(q, chainId, l.transactionHash.toLowerCase(), l.logIndex)
    if (found && found.status !== 'reorged') return null
    // Judged at every hold: a re-included deposit is held anew under the current bound.
    if (!verdict.creditable) {
      await refuse(q, l, token, exact, userId ?? null, found, verdict.reason, bound.text)
      return 'failed'
    }
    // The ledger keeps USDT to 6 decimals; finer dust of an 18-decimal token stays on chain.
    const credit = formatAmount(verdict.credit, USDT_DECIMALS)
    if (!userId || credit === '0') {
      if (!found) await repo.insertDeposit(q, sighting(l, token, exact), { status: 'unattributed' })
      return null
    }
    let row: { id: number }
    if (found) {
      await move(q, found.id, 'reorged', 'on_chain')
      await repo.setDepositBlock(q, found.id, { number: l.blockNumber, hash: l.blockHash })
      row = found
    } else {
      row = {
        id: await repo.insertDeposit(q, sighting(l, token, exact), { status: 'on_chain', userId }),
      }
    }
    await hold(q, row, userId, credit, l.blockHash)
    return 'held'
  }

  async function creditConfirmed(
    q: pg.PoolClient,
    head: bigint,
    confirmations: number,
  ): Promise<number> {
    const open = await repo.lockHeldDeposits(q, chainId)
    let credited = 0
    for (const d of open) {
      if (!isConfirmed(d.block, head, confirmations)) continue
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
    const open = await claims.listUnansweredClaims(q, chainId)
    let failed = 0
    for (const claim of open) {
      // Only the node's "no such receipt" counts as not found; a failed read is retried.
      const receipt = await receiptOrNull(client, claim.txHash)
      let failure: string | null = null
      if (!receipt) failure = claim.old ? 'not found on chain' : null
      else if (receipt.status !== 'success') failure = 'reverted'
      else if (receipt.blockNumber <= scannedTo) {
        failure = (await repo.depositOfTxExists(q, chainId, claim.txHash))
          ? 'sent from another wallet'
          : 'not a transfer of the token to the deposit address'
      }
      if (!failure) continue
      await claims.failClaim(q, claim.id, failure)
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
      // Two transactions on the locked client: the reorg walk commits before the scan.
      report.reorged = await inTransaction(q, walkBackReorg)

      const head = await client.getBlockNumber({ cacheTime: 0 })
      report.head = head
      const cursor = (await repo.readCursor(q, chainId)) ?? (head > 5_000n ? head - 5_000n : -1n)
      const range = nextRange(cursor, head, SCAN_BATCH)
      await inTransaction(q, async (q) => {
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
            await repo.saveBlockHash(q, chainId, n, b.hash)
          }
          await repo.saveCursor(q, chainId, range.to)
          await repo.pruneBlocksBelow(q, chainId, range.to - HASH_WINDOW)
          report.scannedTo = range.to
        }
        report.credited = await creditConfirmed(q, head, s.chainConfirmations)
        const scanned = await repo.readCursor(q, chainId)
        if (scanned !== null) report.failedClaims = await settleClaims(q, scanned)
      })
    })
    if (ran === null) return { ...report, skipped: 'locked' }
    return report
  }

  return { tick }
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>
