import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import {
  keccak256,
  parseTransaction,
  parseUnits,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { receiptOrNull, transactionOrNull } from '../../chain/chain.reads.ts'
import {
  feesOfTransaction,
  readFees,
  replacementPayoutFees,
  type PayoutFees,
} from '../../chain/chain.fees.ts'
import { errorText } from '../../chain/log-range.ts'
import { payCall, vaultPaidAt, vaultPaidEvent } from '../../chain/payout-vault.ts'
import { broadcastRefusal, nonceHolder, type NonceHolder } from '../../chain/chain.rules.ts'
import { SignerRefusal, type PayoutSigner } from '../../signer/signer.service.ts'
import { trimDecimal } from '@hope/api'
import { raiseAlarm, resolveAlarm } from '../alarm/alarm.service.ts'
import type { NoticeService } from '../notice/notice.service.ts'
import { isConfirmed } from '../recharge/deposit.rules.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import type { Settings } from '../settings/settings.rules.ts'
import { WITHDRAWAL_STATUS as S } from './withdraw.rules.ts'
import * as repo from './withdraw.repository.ts'
import type { WithdrawalRow } from './withdraw.repository.ts'
import { applyWithdrawalEvent, learnVaultPayout } from './withdraw.service.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const LOCK_KEY = LOCK_KEYS.withdrawalSender
/** A payout's fees as a log line shows them. */
const stringFees = (f: PayoutFees | null) =>
  f === null
    ? {}
    : f.type === 'legacy'
      ? { gasPrice: String(f.gasPrice) }
      : {
          maxFeePerGas: String(f.maxFeePerGas),
          maxPriorityFeePerGas: String(f.maxPriorityFeePerGas),
        }

export interface SenderReport {
  skipped?: 'locked' | 'not_configured'
  broadcast: number
  confirmed: number
  completed: number
  failed: number
  /** Approved withdrawals the vault had paid already, confirmed from the chain. */
  learned: number
}

/** A payout as signed: its raw transaction and hash. */
export interface Payout {
  raw: Hex
  hash: string
}

/**
 * One run of the sender, the state its steps share: the transaction handle under the chain's
 * advisory lock, the settings read at its start, the vault, the fee cap (wei), the chain head,
 * and the report it fills.
 */
export interface SenderRun {
  q: pg.PoolClient
  s: Settings
  vault: Address
  cap: bigint
  head: bigint
  report: SenderReport
}

/** The alarm raised when a payout stays unmined with its fees at the cap. */
const payoutStuckKey = (withdrawalId: number) => `payout-stuck:${withdrawalId}`

/** The alarm raised when another transaction used a payout's nonce. */
const nonceTakenKey = (withdrawalId: number) => `payout-nonce-taken:${withdrawalId}`

function nonceOf(raw: Hex): number {
  const nonce = parseTransaction(raw).nonce
  if (nonce === undefined) throw new Error('a recorded payout has no nonce')
  return nonce
}

/** Where the sender reports what operators must know (pino's call shape). */
export interface SenderLog {
  warn(extra: object, msg: string): void
  error(extra: object, msg: string): void
}

/** What the sender works with. */
export interface SenderDeps {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  client: PublicClient
  chainId: number
  /** The signer, which holds the hot wallet's key and signs only approved payouts. */
  hotWallet: PayoutSigner
  /** Where the user hears that a withdrawal was paid. */
  notices?: NoticeService
  /** Test hook: runs after a payout is recorded and before it is broadcast. */
  afterRecord?: (withdrawalId: number) => void
  log: SenderLog
}

/**
 * Sends the recorded payout; 'sent' when the node took it. When the node refuses it as known or
 * its nonce as used, says whose transaction holds the nonce.
 */
async function broadcast(
  d: SenderDeps,
  raw: Hex,
  hash: string,
): Promise<'sent' | 'underpriced' | NonceHolder> {
  try {
    await d.client.sendRawTransaction({ serializedTransaction: raw })
    return 'sent'
  } catch (e) {
    const refusal = broadcastRefusal(errorText(e))
    if (refusal === 'other') throw e
    if (refusal === 'underpriced') return 'underpriced'
    if (refusal === 'duplicate') return 'ours'
    // Used by this payout (mined, or pending on the node) or by another transaction.
    const ours = await transactionOrNull(d.client, hash)
    const minedNonce = await d.client.getTransactionCount({
      address: d.hotWallet.address,
      blockTag: 'latest',
    })
    return nonceHolder({
      ourNonce: nonceOf(raw),
      minedNonce,
      ourTransactionKnown: ours !== null,
    })
  }
}

async function alarmNonceTaken(
  d: SenderDeps,
  q: pg.PoolClient,
  row: WithdrawalRow,
  { raw, hash }: Payout,
) {
  const nonce = nonceOf(raw)
  const hotWallet = d.hotWallet.address
  const detail = { withdrawalId: row.id, txHash: hash, nonce, hotWallet }
  const raised = await raiseAlarm(q, {
    key: nonceTakenKey(row.id),
    kind: 'payout_nonce_taken',
    message:
      `Withdrawal ${row.id}: nonce ${nonce} of the hot wallet ${hotWallet} was used by ` +
      `another transaction, so payout ${hash} can never be mined. The withdrawal stays ` +
      `approved and unpaid until an operator settles it.`,
    detail,
  })
  if (raised) d.log.error(detail, 'payout nonce used by another transaction of the hot wallet')
}

/** Tells operators once per transaction that a payout waits unmined with its fees at the cap. */
async function alarmPayoutStuck(
  d: SenderDeps,
  run: SenderRun,
  row: WithdrawalRow,
  { raw, hash }: Payout,
) {
  const detail = {
    withdrawalId: row.id,
    txHash: hash,
    ...stringFees(feesOfTransaction(parseTransaction(raw))),
    sentAtBlock: row.payoutSentBlock,
    head: String(run.head),
  }
  const raised = await raiseAlarm(run.q, {
    key: payoutStuckKey(row.id),
    kind: 'payout_stuck',
    message:
      `Withdrawal ${row.id}: payout ${hash} has not been mined since block ` +
      `${row.payoutSentBlock} and its fees are at the cap of ${run.s.payoutMaxFeeGwei} gwei ` +
      `(payoutMaxFeeGwei). Raise the cap to let it be replaced, or wait for fees to fall.`,
    detail,
  })
  if (raised) d.log.error(detail, 'payout stuck at the fee cap')
}

/**
 * A payout sent `payoutReplaceAfterBlocks` or more blocks ago and still not mined (fees rose
 * past what it offers) is signed again with the same nonce and both fees (a legacy payout: its
 * gas price) raised by payoutFeeBumpPercent (at least 12.5%), never above the cap; the
 * replacement is recorded before it is sent, so only one of the two can be mined, and whichever
 * is, the vault pays the payout id once. At the cap it waits, and an alarm tells operators once
 * per transaction.
 */
export async function replaceIfStuck(
  d: SenderDeps,
  run: SenderRun,
  row: WithdrawalRow,
  payout: Payout,
): Promise<Payout | null> {
  const { q, s, head, cap } = run
  if (row.payoutSentBlock === null) return null
  if (head - BigInt(row.payoutSentBlock) < BigInt(s.payoutReplaceAfterBlocks)) return null
  const sent = parseTransaction(payout.raw)
  const sentFees = feesOfTransaction(sent)
  if (!sentFees) return null
  // Of the sent payout's type: EIP-1559 fees, or a legacy gas price, raised.
  const now = await readFees(d.client, s.payoutFeePercentile, cap)
  const fees = replacementPayoutFees(sentFees, now, s.payoutFeeBumpPercent, cap)
  if (!fees) {
    await alarmPayoutStuck(d, run, row, payout)
    return null
  }
  let next: Hex
  try {
    next = await d.hotWallet.signPayout(row.id, {
      chainId: d.chainId,
      to: sent.to!,
      value: 0n,
      data: sent.data!,
      nonce: sent.nonce!,
      gas: sent.gas!,
      ...fees,
    })
  } catch (e) {
    if (!(e instanceof SignerRefusal)) throw e
    d.log.error({ withdrawalId: row.id, refusal: e.reason }, 'the signer refused a replacement')
    return null
  }
  if (next.toLowerCase() === payout.raw.toLowerCase()) return null
  const nextHash = keccak256(next)
  const replacement = { rawTx: next, txHash: nextHash, block: head }
  if (!(await repo.recordReplacement(q, row.id, payout.hash, replacement))) return null
  d.log.warn(
    { withdrawalId: row.id, replaced: payout.hash, txHash: nextHash, ...stringFees(fees) },
    'payout not mined in time: replaced with higher fees',
  )
  return { raw: next, hash: nextHash }
}

/**
 * When the vault has paid `row`'s payout id, the books learn that payment (the withdrawal is
 * confirmed with the chain's transaction) and true is returned: it is never paid again, nor
 * refunded. A paid id whose event the node does not show yet (a node behind the one that
 * answered) is paid too: it waits for the next tick.
 */
export async function learnIfPaid(
  d: SenderDeps,
  run: SenderRun,
  row: WithdrawalRow,
): Promise<boolean> {
  const block = await vaultPaidAt(d.client, run.vault, row.payoutId)
  if (block === null) return false
  const paid = await vaultPaidEvent(d.client, run.vault, row.payoutId, block)
  if (!paid) {
    d.log.warn(
      { withdrawalId: row.id, block: String(block) },
      'the vault paid this withdrawal but its event is not readable yet; asking again next tick',
    )
    return true
  }
  const learned = await learnVaultPayout(run.q, d.ledger, {
    chainId: d.chainId,
    payoutId: row.payoutId,
    decimals: run.s.chainTokenDecimals,
    ...paid,
  })
  if (learned.outcome === 'mismatch')
    d.log.error({ withdrawalId: row.id, ...paid, detail: learned.detail }, 'vault payout differs')
  else
    d.log.warn(
      { withdrawalId: row.id, txHash: paid.txHash },
      'the vault had paid this withdrawal already; the books learned it from the chain',
    )
  return true
}

/**
 * The first payout of an approved withdrawal, signed and recorded (not yet sent); null when
 * there is none to send: the vault had paid it already (the books learned it), or the signer
 * refused.
 */
export async function signNewPayout(
  d: SenderDeps,
  run: SenderRun,
  row: WithdrawalRow,
): Promise<Payout | null> {
  const { q, s, vault } = run
  // Paid already (a restored database forgot it): the chain says so, and the books learn it
  // instead of paying again.
  if (await learnIfPaid(d, run, row)) {
    run.report.learned += 1
    return null
  }
  // Earlier payouts are all broadcast by now (the run goes in id order), so the pending nonce
  // is the next free one.
  const nonce = await d.client.getTransactionCount({
    address: d.hotWallet.address,
    blockTag: 'pending',
  })
  // Under the operators' cap: EIP-1559 fees from the recent blocks, or on a chain without
  // EIP-1559 (no base fee) a legacy transaction at the chain's gas price.
  const fees = await readFees(d.client, s.payoutFeePercentile, run.cap)
  const units = parseUnits(trimDecimal(row.amount), s.chainTokenDecimals)
  const tx = {
    chainId: d.chainId,
    to: vault,
    value: 0n,
    data: payCall(row.payoutId, row.toAddress, units),
    nonce,
    gas: BigInt(s.payoutGasLimit),
    ...fees,
  }
  let raw: Hex
  try {
    // The signer signs one payout per withdrawal: asked again, it answers the same bytes.
    raw = await d.hotWallet.signPayout(row.id, tx)
  } catch (e) {
    // Above the signer's caps, or not what the books say: it waits, an operator looks.
    if (!(e instanceof SignerRefusal)) throw e
    d.log.error({ withdrawalId: row.id, refusal: e.reason }, 'the signer refused a payout')
    return null
  }
  const hash = keccak256(raw)
  await repo.recordPayout(q, row.id, raw, hash)
  d.afterRecord?.(row.id)
  return { raw, hash }
}

/**
 * Sends a payout not mined yet and answers its receipt when it is mined already; null when it
 * waits (not mined yet, priced under the chain's fees, its nonce taken or unsettled).
 */
export async function sendPayout(
  d: SenderDeps,
  run: SenderRun,
  row: WithdrawalRow,
  payout: Payout,
): Promise<TransactionReceipt | null> {
  const { q, head } = run
  const holder = await broadcast(d, payout.raw, payout.hash)
  if (holder === 'taken') {
    // Another transaction took the nonce: perhaps the same payout, paid another way.
    if (await learnIfPaid(d, run, row)) run.report.learned += 1
    else await alarmNonceTaken(d, q, row, payout)
    return null
  }
  if (holder === 'underpriced') {
    // Fees rose past what it offers: it waits to be replaced (replaceIfStuck).
    if (row.payoutSentBlock === null) await repo.setPayoutSentBlock(q, row.id, head)
    d.log.warn(
      { withdrawalId: row.id, txHash: payout.hash },
      'payout below the fees the chain asks now; waiting, replaced if it stays unmined',
    )
    return null
  }
  if (holder === 'unsettled') {
    d.log.warn(
      { withdrawalId: row.id, txHash: payout.hash },
      'payout nonce reported used but not mined yet; asking again next tick',
    )
    return null
  }
  run.report.broadcast += 1
  // The replacement clock starts at the first send.
  if (row.payoutSentBlock === null) await repo.setPayoutSentBlock(q, row.id, head)
  return receiptOrNull(d.client, payout.hash)
}

/**
 * A mined payout moves its withdrawal: confirmed (5) when it succeeded, failed (4) and refunded
 * when it reverted, unless it reverted because the vault had paid the id already (that payment
 * is the withdrawal's, and the books learn it).
 */
export async function settlePayout(
  d: SenderDeps,
  run: SenderRun,
  row: WithdrawalRow,
  receipt: TransactionReceipt,
): Promise<void> {
  if (receipt.status !== 'success' && (await learnIfPaid(d, run, row))) {
    run.report.learned += 1
    return
  }
  await inTransaction(run.q, async (q) => {
    const current = (await repo.lockWithdrawal(q, row.id))!
    if (receipt.status === 'success') {
      await applyWithdrawalEvent(q, d.ledger, current, 'confirm')
      await repo.setTxBlock(q, row.id, receipt.blockNumber)
      run.report.confirmed += 1
    } else {
      await applyWithdrawalEvent(q, d.ledger, current, 'fail', { failure: 'payout reverted' })
      run.report.failed += 1
    }
    // Mined after all (a reorg dropped the other transaction, or fees fell): the alarms end.
    await resolveAlarm(q, nonceTakenKey(row.id))
    await resolveAlarm(q, payoutStuckKey(row.id))
  })
}

/**
 * One approved withdrawal's turn: its payout signed and recorded when it has none, replaced
 * when stuck, sent until mined, and the withdrawal settled once it is.
 */
export async function payApproved(d: SenderDeps, run: SenderRun, row: WithdrawalRow) {
  const recorded = row.rawTx ? { raw: row.rawTx as Hex, hash: row.txHash! } : null
  let payout = recorded ?? (await signNewPayout(d, run, row))
  if (!payout) return
  let receipt = recorded ? await receiptOrNull(d.client, payout.hash) : null
  // Not mined for payoutReplaceAfterBlocks blocks: the same nonce with higher fees.
  if (!receipt && recorded) payout = (await replaceIfStuck(d, run, row, payout)) ?? payout
  if (!receipt) receipt = await sendPayout(d, run, row, payout)
  if (receipt) await settlePayout(d, run, row, receipt)
}

/**
 * A confirmed withdrawal at the confirmation depth: completed (2), which posts the reservation,
 * and the user told; back to review passed when its payout is no longer where it was mined (a
 * reorg), to be sent again as recorded.
 */
export async function followMined(d: SenderDeps, run: SenderRun, row: WithdrawalRow) {
  if (!isConfirmed(BigInt(row.txBlock!), run.head, run.s.chainConfirmations)) return
  // A failed read throws out of the tick: only the node's "no such receipt" is a reorg.
  const receipt = await receiptOrNull(d.client, row.txHash!)
  if (!receipt || receipt.status !== 'success' || String(receipt.blockNumber) !== row.txBlock) {
    // Reorganised out before the depth: back to review passed, re-sent as recorded.
    await inTransaction(run.q, async (q) => {
      const current = (await repo.lockWithdrawal(q, row.id))!
      await applyWithdrawalEvent(q, d.ledger, current, 'reorg')
      await repo.setTxBlock(q, row.id, null)
    })
    return
  }
  await inTransaction(run.q, async (q) => {
    const current = (await repo.lockWithdrawal(q, row.id))!
    await applyWithdrawalEvent(q, d.ledger, current, 'complete')
    await d.notices?.notify(
      row.userId,
      'withdrawal_paid',
      {
        address: row.toAddress,
        amount: trimDecimal(row.amount),
        withdrawalId: row.id,
        ...(row.txHash ? { txHash: row.txHash } : {}),
      },
      q,
    )
  })
  run.report.completed += 1
}

/**
 * One run: under the chain's advisory lock, every approved withdrawal paid (in id order) and
 * every confirmed one followed to its depth; no chain call at all when there is neither.
 */
export async function tick(d: SenderDeps): Promise<SenderReport> {
  const report: SenderReport = { broadcast: 0, confirmed: 0, completed: 0, failed: 0, learned: 0 }
  const s = await d.settings.get()
  if (!s.chainTokenAddress || !s.payoutVaultAddress) return { ...report, skipped: 'not_configured' }
  const vault = s.payoutVaultAddress as Address
  const cap = parseUnits(trimDecimal(s.payoutMaxFeeGwei), 9)
  const ran = await withAdvisoryLock(d.pool, [LOCK_KEY, d.chainId], async (q) => {
    const approved = await repo.listByStatus(q, S.reviewPassed, d.chainId)
    const mined = await repo.listByStatus(q, S.confirmed, d.chainId)
    // Nothing to pay or to follow: no chain call at all.
    if (!approved.length && !mined.length) return
    const head = await d.client.getBlockNumber({ cacheTime: 0 })
    const run: SenderRun = { q, s, vault, cap, head, report }
    for (const row of approved) await payApproved(d, run, row)
    for (const row of mined) await followMined(d, run, row)
  })
  if (ran === null) return { ...report, skipped: 'locked' }
  return report
}

/**
 * Pays approved withdrawals through the payout vault, each under its payout id, the hot wallet
 * (the vault's payer) sending the call. The signed transaction is recorded before it
 * is broadcast, so a crash in between re-sends the very same transaction (same nonce, same
 * hash) and never pays twice. A mined payout is *confirmed* (5), then *completed* (2) at the
 * confirmation depth, which posts the reservation; a reverted payout is *failed* (4) and
 * refunded. Only the node's answer "no such receipt" counts as a missing payout: a failed RPC
 * call throws out of the tick, which the job retries. A payout whose nonce another transaction
 * of the hot wallet used can never be mined: it raises an operator alarm and waits. The steps
 * of a run (`payApproved`, `followMined` and theirs) are exported for tests.
 */
export function createWithdrawalSender(
  deps: Omit<SenderDeps, 'log'> & { log?: SenderLog | undefined },
) {
  const d: SenderDeps = { ...deps, log: deps.log ?? { warn: () => {}, error: () => {} } }
  return { tick: () => tick(d) }
}

export type WithdrawalSender = ReturnType<typeof createWithdrawalSender>
