import { formatAmount, LOG_TYPE } from '@hope/api'
import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import { parseAbiItem, type Address, type PublicClient } from 'viem'
import { blockOrNull, latestBlockOrNull, receiptOrNull } from '../../chain/chain.reads.ts'
import { readInRanges } from '../../chain/log-range.ts'
import { amountBound } from '../../lib/amount-bound.ts'
import { raiseAlarm } from '../alarm/alarm.service.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import * as claims from './recharge.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { findUserIdByName } from '../user/user.service.ts'
import { depositAmountVerdict } from './deposit.amount.rules.ts'
import * as repo from './deposit.repository.ts'
import { canMoveDeposit, commonAncestor, type DepositStatus } from './deposit.rules.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)
const LOCK_KEY = LOCK_KEYS.depositWatcher
/** Log ranges read in one tick at most: a tick's work stays bounded however far behind it is. */
export const MAX_RANGES_PER_TICK = 25
/**
 * How far below the newest stored block hashes are kept (beyond the confirmation depth), to walk
 * a reorg back, and how many of them one walk asks the chain for at most.
 */
const HASH_WINDOW = 64n
const WALK_LIMIT = 128
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
  /**
   * `node_behind`: the node lacks a block this watcher processed (it lags its peers): nothing
   * is judged until it has caught up, and no reorg is read into its silence.
   */
  skipped?: 'locked' | 'not_configured' | 'node_behind' | 'recent'
  head?: bigint
  scannedTo?: bigint
  seen: number
  credited: number
  reorged: number
  /** Deposits recorded as failed (not credited), e.g. past the amount bound. */
  failed: number
  failedClaims?: number
  /** Log ranges read this tick. */
  ranges?: number
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
  /**
   * A run is skipped when any process ran one less than this long ago (the job's workers tick
   * out of step: together they ask the chain no more often than one); 0 never skips.
   */
  minRunGapMs?: number
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

  /**
   * Compares the newest stored block hash with the chain's: the same, nothing happened; another
   * hash at that height, a reorg, walked back through the stored hashes to the newest one the
   * chain still has, and what lay above it is voided and scanned again. A block the node does
   * not have (a node behind its peers, or a chain that got shorter until it grows again) is
   * `behind`: waited for, never read as a reorg. The chain is read before the short transaction
   * that writes the outcome.
   */
  async function checkReorg(
    conn: pg.PoolClient,
    latest: { number: bigint; hash: string; parentHash: string },
  ): Promise<number | 'behind'> {
    const stored = await repo.listRecentBlocks(conn, chainId, WALK_LIMIT)
    if (!stored.length) return 0
    const top = stored[0]!
    // The head block tells its own hash and its parent's: no call for a top that is either.
    const topBlock =
      top.number === latest.number
        ? { hash: latest.hash }
        : top.number + 1n === latest.number
          ? { hash: latest.parentHash }
          : await blockOrNull(client, top.number)
    if (!topBlock?.hash) return 'behind'
    if (topBlock.hash.toLowerCase() === top.hash.toLowerCase()) return 0

    const storedMap = new Map(stored.map((r) => [r.number, r.hash]))
    const chainMap = new Map<bigint, string>([[top.number, topBlock.hash]])
    for (const r of stored.slice(1)) {
      const b = await blockOrNull(client, r.number)
      if (!b?.hash) return 'behind'
      chainMap.set(r.number, b.hash)
      if (b.hash.toLowerCase() === r.hash.toLowerCase()) break
    }
    const lowest = stored.at(-1)!.number
    const ancestor = commonAncestor(storedMap, chainMap) ?? lowest - 1n
    log('chain reorganisation found', { chainId, ancestor: String(ancestor) })
    return inTransaction(conn, (q) => rewind(q, ancestor))
  }

  /** Voids what was held above `ancestor` and moves the scan back to it. */
  async function rewind(q: pg.PoolClient, ancestor: bigint): Promise<number> {
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

  /** Posts the held deposits at or below `final` (the newest block taken as final). */
  async function creditConfirmed(q: pg.PoolClient, final: bigint): Promise<number> {
    const open = await repo.lockHeldDeposits(q, chainId)
    let credited = 0
    for (const d of open) {
      if (d.block > final) continue
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
   * transfer of the token to the deposit address, or sent from another wallet → failed. The
   * receipts are read first; each failure is written in its own short statement.
   */
  async function settleClaims(conn: pg.PoolClient, scannedTo: bigint): Promise<number> {
    const open = await claims.listUnansweredClaims(conn, chainId)
    let failed = 0
    for (const claim of open) {
      // Only the node's "no such receipt" counts as not found; a failed read is retried.
      const receipt = await receiptOrNull(client, claim.txHash)
      let failure: string | null = null
      if (!receipt) failure = claim.old ? 'not found on chain' : null
      else if (receipt.status !== 'success') failure = 'reverted'
      else if (receipt.blockNumber <= scannedTo) {
        failure = (await repo.depositOfTxExists(conn, chainId, claim.txHash))
          ? 'sent from another wallet'
          : 'not a transfer of the token to the deposit address'
      }
      if (!failure) continue
      await claims.failClaim(conn, claim.id, failure)
      failed += 1
    }
    return failed
  }

  /** The newest block taken as final: `confirmations` deep, or the chain's `finalized` block. */
  async function finalBlock(
    head: bigint,
    s: { chainConfirmations: number; chainFinality: 'confirmations' | 'finalized' },
  ): Promise<bigint> {
    const deep = head - BigInt(s.chainConfirmations) + 1n
    if (s.chainFinality !== 'finalized') return deep
    const finalized = await client.getBlock({ blockTag: 'finalized' })
    const n = finalized.number ?? -1n
    return n < deep ? n : deep
  }

  async function tick(): Promise<TickReport> {
    const report: TickReport = { seen: 0, credited: 0, reorged: 0, failed: 0 }
    const s = await settings.get()
    if (!s.chainTokenAddress || !s.chainDepositAddress)
      return { ...report, skipped: 'not_configured' }
    const token = s.chainTokenAddress.toLowerCase()
    const ran = await withAdvisoryLock(pool, [LOCK_KEY, chainId], async (conn) => {
      if (deps.minRunGapMs && !(await repo.claimScanRun(conn, chainId, deps.minRunGapMs)))
        return 'recent' as const
      // The chain is read outside transactions; each outcome is written in a short one.
      // The head block: its number, and the hashes of it and its parent for the reorg check.
      const latest = await latestBlockOrNull(client)
      if (!latest || latest.number === null || latest.hash === null) return 'behind' as const
      const head = latest.number
      report.head = head
      const reorg = await checkReorg(conn, {
        number: head,
        hash: latest.hash,
        parentHash: latest.parentHash,
      })
      if (reorg === 'behind') return 'behind' as const
      report.reorged = reorg

      let cursor = await repo.readCursor(conn, chainId)
      if (cursor === null) {
        // The first scan starts at the deployment's first block, never at 0.
        const first = BigInt(s.chainStartBlock || s.payoutVaultDeployBlock)
        cursor = (first > 0n ? first : head) - 1n
        if (first === 0n)
          log('deposit scan starts at the head: chainStartBlock is not set', {
            chainId,
            head: String(head),
          })
      }
      const bound = amountBound(s, 'USDT')
      const done = await readInRanges({
        from: cursor + 1n,
        last: head,
        span: BigInt(s.chainLogRange),
        maxRanges: MAX_RANGES_PER_TICK,
        read: async (range) => {
          const logs = await client.getLogs({
            address: s.chainTokenAddress as Address,
            event: TRANSFER,
            args: { to: s.chainDepositAddress as Address },
            fromBlock: range.from,
            toBlock: range.to,
          })
          // The hash of a recent range's end, to notice a reorg next time; history far below
          // the head needs none (nothing there is held any more).
          const recent = range.to + HASH_WINDOW + BigInt(s.chainConfirmations) > head
          const end = !recent
            ? null
            : range.to === head
              ? latest
              : await blockOrNull(client, range.to)
          return { logs, end: end?.hash ?? null, recent }
        },
        handle: async (range, { logs, end, recent }) => {
          // The node lost the range's end since it answered the logs: ask again next tick.
          if (recent && !end) return false
          await inTransaction(conn, async (q) => {
            const hashes = new Map<bigint, string>()
            for (const l of logs) {
              if (l.address.toLowerCase() !== token || l.removed) continue
              // A zero-value transfer (anyone can send one) moves nothing and has nothing to record.
              if (l.args.value === 0n) continue
              hashes.set(l.blockNumber, l.blockHash)
              const outcome = await record(
                q,
                {
                  transactionHash: l.transactionHash,
                  logIndex: l.logIndex,
                  blockNumber: l.blockNumber,
                  blockHash: l.blockHash,
                  from: l.args.from!,
                  value: l.args.value!,
                },
                token,
                s.chainTokenDecimals,
                bound,
              )
              if (outcome === 'held') report.seen += 1
              if (outcome === 'failed') report.failed += 1
            }
            if (end) hashes.set(range.to, end)
            for (const [n, hash] of hashes) await repo.saveBlockHash(q, chainId, n, hash)
            await repo.saveCursor(q, chainId, range.to)
            await repo.pruneBlocksBelow(
              q,
              chainId,
              range.to - HASH_WINDOW - BigInt(s.chainConfirmations),
            )
          })
          report.scannedTo = range.to
        },
      })
      report.ranges = done.ranges

      if (await repo.hasHeldDeposits(conn, chainId)) {
        const final = await finalBlock(head, s)
        report.credited = await inTransaction(conn, (q) => creditConfirmed(q, final))
      }
      const scanned = await repo.readCursor(conn, chainId)
      if (scanned !== null) report.failedClaims = await settleClaims(conn, scanned)
      return 'ran' as const
    })
    if (ran === null) return { ...report, skipped: 'locked' }
    if (ran === 'behind') return { ...report, skipped: 'node_behind' }
    if (ran === 'recent') return { ...report, skipped: 'recent' }
    return report
  }

  return { tick }
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>
