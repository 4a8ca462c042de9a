import { formatAmount } from '@hope/api'
import type pg from 'pg'
import { erc20Abi, getAbiItem, type Address, type PublicClient } from 'viem'
import { blockOrNull } from '../../chain/chain.reads.ts'
import { readInRanges, type BlockRange } from '../../chain/log-range.ts'
import { MOVED_TO_COLD_EVENT, PAID_EVENT, PAYOUT_VAULT_ABI } from '../../chain/payout-vault.ts'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import { raiseAlarm } from '../alarm/alarm.service.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { learnVaultPayout, type VaultPayoutOutcome } from '../withdraw/withdraw.service.ts'
import * as repo from './reconcile.repository.ts'
import {
  payoutAlarmKind,
  resumeFrom,
  safeHead,
  unexplainedOutflows,
  type ChainAlarmKind,
  type TokenOutflow,
  type VaultSending,
} from './reconcile.rules.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const TRANSFER = getAbiItem({ abi: erc20Abi, name: 'Transfer' })
const LOCK_KEY = LOCK_KEYS.reconcile
/** Ranges read in one tick at most, so one tick's work stays bounded however far behind it is. */
export const MAX_RANGES_PER_TICK = 25

export interface ScanLog {
  info(extra: object, msg: string): void
  warn(extra: object, msg: string): void
  error(extra: object, msg: string): void
}

export interface ScanReport {
  skipped?: 'locked' | 'not_configured' | 'node_behind'
  head?: bigint
  /** The last block read, when this tick read any. */
  scannedTo?: bigint
  /** Whether the scan reached the safe head (false: more ranges wait for the next tick). */
  caughtUp: boolean
  /** `Paid` events read. */
  payouts: number
  /** Approved withdrawals the books learned were paid from the vault's events. */
  learned: number
  /** Alarms raised now (each once: a rescan raises nothing new). */
  alarms: number
  movedToCold: number
}

/** A `Paid` event as read. */
interface PaidLog {
  txHash: string
  logIndex: number
  blockNumber: bigint
  payoutId: string
  to: string
  units: bigint
}

/** An alarm to raise for what one range showed. */
interface Finding {
  kind: ChainAlarmKind
  txHash: string
  logIndex: number
  message: string
  detail: Record<string, unknown>
}

/**
 * Asks the chain what left the platform's addresses and checks the books against it, never the
 * other way round. From a stored checkpoint (first at the vault's deployment block), in ranges of
 * at most `chainLogRange` blocks (halved while a node refuses a range as too large), up to the
 * safe head (the confirmation depth), it reads the payout vault's `Paid` and `MovedToCold`
 * events and every token Transfer out of the vault, the hot wallet (the vault's payer) and the
 * deposit address:
 * - each `Paid` is told to the withdrawal books (`learnVaultPayout`): a payout id no withdrawal
 *   has, or a payout that differs from its withdrawal, raises an operator alarm; an approved
 *   withdrawal the vault paid is confirmed (after a restore) with a warning;
 * - a Transfer out of the vault that no `Paid` or `MovedToCold` of the same transaction
 *   explains, or any Transfer out of the hot wallet or the deposit address, raises an alarm as
 *   an unexplained outflow;
 * - `MovedToCold` (an owner's action) is logged.
 * Alarms are keyed by transaction and log, so a range read twice raises each once. One process
 * of the deployment scans at a time (advisory lock); chain reads run outside transactions, and
 * each range's alarms and checkpoint are written in one short transaction.
 */
export function createChainScan(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  client: PublicClient
  chainId: number
  /** The hot wallet this process pays from, when it knows it; the vault's payer is read too. */
  hotWallet: Address | null
  log?: ScanLog
  /** Told of each alarm once it is recorded (the metrics count them). */
  alarmRaised?: (kind: ChainAlarmKind) => void
}) {
  const { pool, ledger, settings, client, chainId } = deps
  const log: ScanLog = deps.log ?? { info: () => {}, warn: () => {}, error: () => {} }

  async function tick(): Promise<ScanReport> {
    const report: ScanReport = {
      caughtUp: false,
      payouts: 0,
      learned: 0,
      alarms: 0,
      movedToCold: 0,
    }
    const s = await settings.get()
    if (!s.payoutVaultAddress || !s.chainTokenAddress)
      return { ...report, skipped: 'not_configured' }
    // Never from block 0: the vault's deployment, else the deployment's first block.
    const firstBlock = BigInt(s.payoutVaultDeployBlock || s.chainStartBlock)
    if (firstBlock === 0n) {
      log.warn(
        { chainId },
        'the chain scan waits for payoutVaultDeployBlock (or chainStartBlock) to be set',
      )
      return { ...report, skipped: 'not_configured' }
    }
    const vault = s.payoutVaultAddress.toLowerCase() as Address
    const token = s.chainTokenAddress.toLowerCase() as Address
    const name = `payout-vault:${vault}`
    const format = (units: bigint) => formatAmount(units, s.chainTokenDecimals)

    const ran = await withAdvisoryLock(pool, [LOCK_KEY, chainId], async (conn) => {
      const head = await client.getBlockNumber({ cacheTime: 0 })
      report.head = head
      const last = safeHead(head, s.chainConfirmations)
      const checkpoint = await repo.readCheckpoint(conn, name, chainId)
      let chainHash: string | undefined
      if (checkpoint?.blockHash) {
        // A node behind the checkpoint says nothing about the chain: wait for it.
        if (checkpoint.block > head) return 'node_behind' as const
        // A node without that block (its history lost in a restart) tells nothing either way.
        chainHash = (await blockOrNull(client, checkpoint.block))?.hash ?? undefined
      }
      const start = resumeFrom(checkpoint, chainHash, firstBlock)
      if (start.replaced)
        log.warn(
          { chainId, block: String(checkpoint!.block), from: String(start.from) },
          "the block the chain scan stopped at was replaced; scanning again from the vault's deployment",
        )

      // The payer the vault names now: the hot wallet, also in a process that does not pay.
      const payer = await client.readContract({
        address: vault,
        abi: PAYOUT_VAULT_ABI,
        functionName: 'payer',
      })
      const roles = new Map<string, string>([
        [String(s.chainDepositAddress).toLowerCase(), 'the deposit address'],
        ...(deps.hotWallet ? [[deps.hotWallet.toLowerCase(), 'the hot wallet'] as const] : []),
        [payer.toLowerCase(), "the hot wallet (the vault's payer)"],
        [vault, 'the payout vault'],
      ])
      roles.delete('')
      const watched = [...roles.keys()] as Address[]

      const done = await readInRanges({
        from: start.from,
        last,
        span: BigInt(s.chainLogRange),
        maxRanges: MAX_RANGES_PER_TICK,
        read: (range) => readRange(range, vault, token, watched),
        handle: async (range, read) => {
          const findings: Finding[] = []
          for (const paid of read.paid) {
            report.payouts += 1
            const outcome = await learnVaultPayout(conn, ledger, {
              chainId,
              payoutId: paid.payoutId,
              to: paid.to,
              units: paid.units,
              decimals: s.chainTokenDecimals,
              txHash: paid.txHash,
              blockNumber: paid.blockNumber,
            })
            if (outcome.outcome === 'confirmed') {
              report.learned += 1
              log.warn(
                { chainId, txHash: paid.txHash, withdrawalId: outcome.withdrawalId },
                `the chain paid withdrawal ${outcome.withdrawalId}; the books learned it from the vault`,
              )
            }
            const kind = payoutAlarmKind(outcome.outcome)
            if (kind) findings.push(payoutFinding(kind, paid, outcome, chainId, format))
          }
          for (const moved of read.movedToCold) {
            report.movedToCold += 1
            log.info(
              { chainId, txHash: moved.txHash, to: moved.to, amount: format(moved.units) },
              `the vault's owner moved ${format(moved.units)} USDT to the cold address ${moved.to}`,
            )
          }
          const sendings: VaultSending[] = [...read.paid, ...read.movedToCold]
          for (const o of unexplainedOutflows(read.outflows, sendings, vault))
            findings.push(outflowFinding(o, roles.get(o.from) ?? o.from, chainId, format))

          const blockHash = (await blockOrNull(client, range.to))?.hash ?? null
          const raised = await inTransaction(conn, async (q) => {
            const now: Finding[] = []
            for (const f of findings) {
              const fresh = await raiseAlarm(q, {
                key: `chain-scan:${chainId}:${f.txHash.toLowerCase()}:${f.logIndex}`,
                kind: f.kind,
                message: f.message,
                detail: f.detail,
              })
              if (fresh) now.push(f)
            }
            await repo.saveCheckpoint(q, name, chainId, range.to, blockHash)
            return now
          })
          for (const f of raised) {
            report.alarms += 1
            log.error({ kind: f.kind, ...f.detail }, f.message)
            deps.alarmRaised?.(f.kind)
          }
          report.scannedTo = range.to
        },
      })
      report.caughtUp = done.next > last
      return 'ran' as const
    })
    if (ran === null) return { ...report, skipped: 'locked' }
    if (ran === 'node_behind') return { ...report, skipped: 'node_behind' }
    return report
  }

  /** The vault's events and the watched addresses' token outflows of one range. */
  async function readRange(range: BlockRange, vault: Address, token: Address, watched: Address[]) {
    const [events, transfers] = await Promise.all([
      client.getLogs({
        address: vault,
        events: [PAID_EVENT, MOVED_TO_COLD_EVENT],
        fromBlock: range.from,
        toBlock: range.to,
      }),
      client.getLogs({
        address: token,
        event: TRANSFER,
        args: { from: watched },
        fromBlock: range.from,
        toBlock: range.to,
      }),
    ])
    const paid: PaidLog[] = []
    const movedToCold: (VaultSending & { logIndex: number })[] = []
    for (const l of events) {
      if (l.removed || l.address.toLowerCase() !== vault) continue
      const at = { txHash: l.transactionHash.toLowerCase(), logIndex: l.logIndex }
      if (l.eventName === 'Paid')
        paid.push({
          ...at,
          blockNumber: l.blockNumber,
          payoutId: l.args.payoutId!.toLowerCase(),
          to: l.args.to!.toLowerCase(),
          units: l.args.amount!,
        })
      else if (l.eventName === 'MovedToCold')
        movedToCold.push({ ...at, to: l.args.to!.toLowerCase(), units: l.args.amount! })
    }
    const outflows: TokenOutflow[] = transfers
      .filter((l) => !l.removed && l.address.toLowerCase() === token)
      .map((l) => ({
        txHash: l.transactionHash.toLowerCase(),
        logIndex: l.logIndex,
        from: l.args.from!.toLowerCase(),
        to: l.args.to!.toLowerCase(),
        units: l.args.value!,
      }))
    return { paid, movedToCold, outflows }
  }

  return { tick }
}

export type ChainScan = ReturnType<typeof createChainScan>

/** The alarm of a `Paid` event the books do not know, or that differs from its withdrawal. */
function payoutFinding(
  kind: ChainAlarmKind,
  paid: PaidLog,
  outcome: VaultPayoutOutcome,
  chainId: number,
  format: (units: bigint) => string,
): Finding {
  const amount = format(paid.units)
  const withdrawalId = 'withdrawalId' in outcome ? outcome.withdrawalId : null
  const mismatch = 'detail' in outcome ? outcome.detail : null
  const paidThere = `The payout vault paid ${amount} USDT to ${paid.to} in ${paid.txHash}`
  return {
    kind,
    txHash: paid.txHash,
    logIndex: paid.logIndex,
    message:
      withdrawalId === null
        ? `${paidThere} under payout id ${paid.payoutId}, which no withdrawal has: money left ` +
          `that the books do not know of. Find who had the payer key sign it before paying more.`
        : `${paidThere} under payout id ${paid.payoutId} of withdrawal ${withdrawalId}, which ` +
          `differs from the books: ${mismatch}.`,
    detail: {
      chainId,
      txHash: paid.txHash,
      logIndex: paid.logIndex,
      blockNumber: String(paid.blockNumber),
      payoutId: paid.payoutId,
      to: paid.to,
      amount,
      units: String(paid.units),
      ...(withdrawalId === null ? {} : { withdrawalId }),
      ...(mismatch === null ? {} : { mismatch }),
    },
  }
}

/** The alarm of tokens out of the platform's address `role` that no vault event explains. */
function outflowFinding(
  o: TokenOutflow,
  role: string,
  chainId: number,
  format: (units: bigint) => string,
): Finding {
  const amount = format(o.units)
  return {
    kind: 'unexplained_outflow',
    txHash: o.txHash,
    logIndex: o.logIndex,
    message:
      `${amount} USDT left ${role} ${o.from} for ${o.to} in ${o.txHash} (log ${o.logIndex}), ` +
      `not as a payout of the vault: the platform moves no money out of there. Find who ` +
      `signed it.`,
    detail: {
      chainId,
      txHash: o.txHash,
      logIndex: o.logIndex,
      from: o.from,
      to: o.to,
      amount,
      units: String(o.units),
    },
  }
}
