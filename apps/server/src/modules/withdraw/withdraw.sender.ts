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
} from 'viem'
import { receiptOrNull, transactionOrNull } from '../../chain/chain.reads.ts'
import { readFees, replacementFees, type Fees } from '../../chain/chain.fees.ts'
import { errorText } from '../../chain/log-range.ts'
import { payCall, vaultPaidAt, vaultPaidEvent } from '../../chain/payout-vault.ts'
import { broadcastRefusal, nonceHolder, type NonceHolder } from '../../chain/chain.rules.ts'
import { SignerRefusal, type PayoutSigner } from '../../signer/signer.service.ts'
import { trimDecimal } from '@hope/api'
import { raiseAlarm, resolveAlarm } from '../alarm/alarm.service.ts'
import type { NoticeService } from '../notice/notice.service.ts'
import { isConfirmed } from '../deposit/deposit.rules.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import type { Settings } from '../settings/settings.rules.ts'
import { WITHDRAWAL_STATUS as S } from './withdraw.rules.ts'
import * as repo from './withdraw.repository.ts'
import type { WithdrawalRow } from './withdraw.repository.ts'
import { applyWithdrawalEvent, learnVaultPayout } from './withdraw.service.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const LOCK_KEY = LOCK_KEYS.withdrawalSender
const stringFees = (f: Fees) => ({
  maxFeePerGas: String(f.maxFeePerGas),
  maxPriorityFeePerGas: String(f.maxPriorityFeePerGas),
})

export interface SenderReport {
  skipped?: 'locked' | 'not_configured'
  broadcast: number
  confirmed: number
  completed: number
  failed: number
  /** Approved withdrawals the vault had paid already, confirmed from the chain. */
  learned: number
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

/**
 * Pays approved withdrawals through the payout vault, each under its payout id, the hot wallet
 * (the vault's payer) sending the call. The signed transaction is recorded before it
 * is broadcast, so a crash in between re-sends the very same transaction (same nonce, same
 * hash) and never pays twice. A mined payout is *confirmed* (5), then *completed* (2) at the
 * confirmation depth, which posts the reservation; a reverted payout is *failed* (4) and
 * refunded. Only the node's answer "no such receipt" counts as a missing payout: a failed RPC
 * call throws out of the tick, which the job retries. A payout whose nonce another transaction
 * of the hot wallet used can never be mined: it raises an operator alarm and waits.
 */
export function createWithdrawalSender(deps: {
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
  log?: SenderLog
}) {
  const { pool, ledger, settings, client, chainId, hotWallet } = deps
  const log: SenderLog = deps.log ?? { warn: () => {}, error: () => {} }

  /**
   * Sends the recorded payout; 'sent' when the node took it. When the node refuses it as known
   * or its nonce as used, says whose transaction holds the nonce.
   */
  async function broadcast(raw: Hex, hash: string): Promise<'sent' | 'underpriced' | NonceHolder> {
    try {
      await client.sendRawTransaction({ serializedTransaction: raw })
      return 'sent'
    } catch (e) {
      const refusal = broadcastRefusal(errorText(e))
      if (refusal === 'other') throw e
      if (refusal === 'underpriced') return 'underpriced'
      if (refusal === 'duplicate') return 'ours'
      // Used by this payout (mined, or pending on the node) or by another transaction.
      const ours = await transactionOrNull(client, hash)
      const minedNonce = await client.getTransactionCount({
        address: hotWallet.address,
        blockTag: 'latest',
      })
      return nonceHolder({
        ourNonce: nonceOf(raw),
        minedNonce,
        ourTransactionKnown: ours !== null,
      })
    }
  }

  async function alarmNonceTaken(q: pg.PoolClient, row: WithdrawalRow, raw: Hex, hash: string) {
    const nonce = nonceOf(raw)
    const detail = { withdrawalId: row.id, txHash: hash, nonce, hotWallet: hotWallet.address }
    const raised = await raiseAlarm(q, {
      key: nonceTakenKey(row.id),
      kind: 'payout_nonce_taken',
      message:
        `Withdrawal ${row.id}: nonce ${nonce} of the hot wallet ${hotWallet.address} was used by ` +
        `another transaction, so payout ${hash} can never be mined. The withdrawal stays ` +
        `approved and unpaid until an operator settles it.`,
      detail,
    })
    if (raised) log.error(detail, 'payout nonce used by another transaction of the hot wallet')
  }

  /**
   * A payout sent `payoutReplaceAfterBlocks` or more blocks ago and still not mined (fees rose
   * past what it offers) is signed again with the same nonce and both fees raised by
   * payoutFeeBumpPercent (at least 12.5%), never above the cap; the replacement is recorded
   * before it is sent, so only one of the two can be mined, and whichever is, the vault pays the
   * payout id once. At the cap it waits, and an alarm tells operators once per transaction.
   */
  async function replaceIfStuck(
    q: pg.PoolClient,
    row: WithdrawalRow,
    raw: Hex,
    hash: string,
    head: bigint,
    s: Settings,
    cap: bigint,
  ): Promise<{ raw: Hex; hash: string } | null> {
    if (row.payoutSentBlock === null) return null
    if (head - BigInt(row.payoutSentBlock) < BigInt(s.payoutReplaceAfterBlocks)) return null
    const sent = parseTransaction(raw)
    if (sent.maxFeePerGas === undefined || sent.maxPriorityFeePerGas === undefined) return null
    const now = await readFees(client, s.payoutFeePercentile, cap)
    const fees = replacementFees(
      { maxFeePerGas: sent.maxFeePerGas, maxPriorityFeePerGas: sent.maxPriorityFeePerGas },
      now,
      s.payoutFeeBumpPercent,
      cap,
    )
    if (!fees) {
      const detail = {
        withdrawalId: row.id,
        txHash: hash,
        maxFeePerGas: String(sent.maxFeePerGas),
        sentAtBlock: row.payoutSentBlock,
        head: String(head),
      }
      const raised = await raiseAlarm(q, {
        key: payoutStuckKey(row.id),
        kind: 'payout_stuck',
        message:
          `Withdrawal ${row.id}: payout ${hash} has not been mined since block ` +
          `${row.payoutSentBlock} and its fees are at the cap of ${s.payoutMaxFeeGwei} gwei ` +
          `(payoutMaxFeeGwei). Raise the cap to let it be replaced, or wait for fees to fall.`,
        detail,
      })
      if (raised) log.error(detail, 'payout stuck at the fee cap')
      return null
    }
    let next: Hex
    try {
      next = await hotWallet.signPayout(row.id, {
        chainId,
        type: 'eip1559' as const,
        to: sent.to!,
        value: 0n,
        data: sent.data!,
        nonce: sent.nonce!,
        gas: sent.gas!,
        ...fees,
      })
    } catch (e) {
      if (!(e instanceof SignerRefusal)) throw e
      log.error({ withdrawalId: row.id, refusal: e.reason }, 'the signer refused a replacement')
      return null
    }
    if (next.toLowerCase() === raw.toLowerCase()) return null
    const nextHash = keccak256(next)
    if (
      !(await repo.recordReplacement(q, row.id, hash, {
        rawTx: next,
        txHash: nextHash,
        block: head,
      }))
    )
      return null
    log.warn(
      { withdrawalId: row.id, replaced: hash, txHash: nextHash, ...stringFees(fees) },
      'payout not mined in time: replaced with higher fees',
    )
    return { raw: next, hash: nextHash }
  }

  async function tick(): Promise<SenderReport> {
    const report: SenderReport = {
      broadcast: 0,
      confirmed: 0,
      completed: 0,
      failed: 0,
      learned: 0,
    }
    const s = await settings.get()
    if (!s.chainTokenAddress || !s.payoutVaultAddress)
      return { ...report, skipped: 'not_configured' }
    const vault = s.payoutVaultAddress as Address

    /**
     * When the vault has paid `row`'s payout id, the books learn that payment (the withdrawal
     * is confirmed with the chain's transaction) and true is returned: it is never paid again,
     * nor refunded. A paid id whose event the node does not show yet (a node behind the one
     * that answered) is paid too: it waits for the next tick.
     */
    async function learnIfPaid(q: pg.PoolClient, row: WithdrawalRow): Promise<boolean> {
      const block = await vaultPaidAt(client, vault, row.payoutId)
      if (block === null) return false
      const paid = await vaultPaidEvent(client, vault, row.payoutId, block)
      if (!paid) {
        log.warn(
          { withdrawalId: row.id, block: String(block) },
          'the vault paid this withdrawal but its event is not readable yet; asking again next tick',
        )
        return true
      }
      const learned = await learnVaultPayout(q, ledger, {
        chainId,
        payoutId: row.payoutId,
        decimals: s.chainTokenDecimals,
        ...paid,
      })
      if (learned.outcome === 'mismatch')
        log.error({ withdrawalId: row.id, ...paid, detail: learned.detail }, 'vault payout differs')
      else
        log.warn(
          { withdrawalId: row.id, txHash: paid.txHash },
          'the vault had paid this withdrawal already; the books learned it from the chain',
        )
      return true
    }

    const cap = parseUnits(trimDecimal(s.payoutMaxFeeGwei), 9)
    const ran = await withAdvisoryLock(pool, [LOCK_KEY, chainId], async (q) => {
      const approved = await repo.listByStatus(q, S.reviewPassed, chainId)
      const mined = await repo.listByStatus(q, S.confirmed, chainId)
      // Nothing to pay or to follow: no chain call at all.
      if (!approved.length && !mined.length) return
      const head = await client.getBlockNumber({ cacheTime: 0 })
      for (const row of approved) {
        let hash = row.txHash
        let raw = row.rawTx as Hex | null
        if (!raw) {
          // Paid already (a restored database forgot it): the chain says so, and the books
          // learn it instead of paying again.
          if (await learnIfPaid(q, row)) {
            report.learned += 1
            continue
          }
          // Earlier payouts are all broadcast by now (this loop goes in id order), so the
          // pending nonce is the next free one.
          const nonce = await client.getTransactionCount({
            address: hotWallet.address,
            blockTag: 'pending',
          })
          // EIP-1559 fees from the recent blocks, under the operators' cap.
          const fees = await readFees(client, s.payoutFeePercentile, cap)
          const tx = {
            chainId,
            type: 'eip1559' as const,
            to: vault,
            value: 0n,
            data: payCall(
              row.payoutId,
              row.toAddress,
              parseUnits(trimDecimal(row.amount), s.chainTokenDecimals),
            ),
            nonce,
            gas: BigInt(s.payoutGasLimit),
            ...fees,
          }
          try {
            // The signer signs one payout per withdrawal: asked again, it answers the same bytes.
            raw = await hotWallet.signPayout(row.id, tx)
          } catch (e) {
            // Above the signer's caps, or not what the books say: it waits, an operator looks.
            if (!(e instanceof SignerRefusal)) throw e
            log.error({ withdrawalId: row.id, refusal: e.reason }, 'the signer refused a payout')
            continue
          }
          hash = keccak256(raw)
          await repo.recordPayout(q, row.id, raw, hash)
          deps.afterRecord?.(row.id)
        }
        let receipt = row.rawTx ? await receiptOrNull(client, hash!) : null
        if (!receipt && row.rawTx) {
          // Not mined for payoutReplaceAfterBlocks blocks: the same nonce with higher fees.
          const replaced = await replaceIfStuck(q, row, raw, hash!, head, s, cap)
          if (replaced) ({ raw, hash } = replaced)
        }
        if (!receipt) {
          const holder = await broadcast(raw, hash!)
          if (holder === 'taken') {
            // Another transaction took the nonce: perhaps the same payout, paid another way.
            if (await learnIfPaid(q, row)) {
              report.learned += 1
              continue
            }
            await alarmNonceTaken(q, row, raw, hash!)
            continue
          }
          if (holder === 'underpriced') {
            // Fees rose past what it offers: it waits to be replaced (replaceIfStuck).
            if (row.payoutSentBlock === null) await repo.setPayoutSentBlock(q, row.id, head)
            log.warn(
              { withdrawalId: row.id, txHash: hash },
              'payout below the fees the chain asks now; waiting, replaced if it stays unmined',
            )
            continue
          }
          if (holder === 'unsettled') {
            log.warn(
              { withdrawalId: row.id, txHash: hash },
              'payout nonce reported used but not mined yet; asking again next tick',
            )
            continue
          }
          report.broadcast += 1
          // The replacement clock starts at the first send.
          if (row.payoutSentBlock === null) await repo.setPayoutSentBlock(q, row.id, head)
          receipt = await receiptOrNull(client, hash!)
        }
        if (!receipt) continue
        // Reverted because the vault paid this id already: that payment is the withdrawal's.
        if (receipt.status !== 'success' && (await learnIfPaid(q, row))) {
          report.learned += 1
          continue
        }
        await inTransaction(q, async (q) => {
          const current = (await repo.lockWithdrawal(q, row.id))!
          if (receipt.status === 'success') {
            await applyWithdrawalEvent(q, ledger, current, 'confirm')
            await repo.setTxBlock(q, row.id, receipt.blockNumber)
            report.confirmed += 1
          } else {
            await applyWithdrawalEvent(q, ledger, current, 'fail', { failure: 'payout reverted' })
            report.failed += 1
          }
          // Mined after all (a reorg dropped the other transaction, or fees fell): the alarms end.
          await resolveAlarm(q, nonceTakenKey(row.id))
          await resolveAlarm(q, payoutStuckKey(row.id))
        })
      }

      for (const row of mined) {
        if (!isConfirmed(BigInt(row.txBlock!), head, s.chainConfirmations)) continue
        // A failed read throws out of the tick: only the node's "no such receipt" is a reorg.
        const receipt = await receiptOrNull(client, row.txHash!)
        if (
          !receipt ||
          receipt.status !== 'success' ||
          String(receipt.blockNumber) !== row.txBlock
        ) {
          // Reorganised out before the depth: back to review passed, re-sent as recorded.
          await inTransaction(q, async (q) => {
            const current = (await repo.lockWithdrawal(q, row.id))!
            await applyWithdrawalEvent(q, ledger, current, 'reorg')
            await repo.setTxBlock(q, row.id, null)
          })
          continue
        }
        await inTransaction(q, async (q) => {
          const current = (await repo.lockWithdrawal(q, row.id))!
          await applyWithdrawalEvent(q, ledger, current, 'complete')
          await deps.notices?.notify(
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
        report.completed += 1
      }
    })
    if (ran === null) return { ...report, skipped: 'locked' }
    return report
  }

  return { tick }
}

export type WithdrawalSender = ReturnType<typeof createWithdrawalSender>
