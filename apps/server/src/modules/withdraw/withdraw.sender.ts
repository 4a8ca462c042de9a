import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import {
  encodeFunctionData,
  keccak256,
  parseAbi,
  parseUnits,
  type Address,
  type LocalAccount,
  type PublicClient,
} from 'viem'
import { isConfirmed } from '../deposit/deposit.rules.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { WITHDRAWAL_STATUS as S } from './withdraw.rules.ts'
import { WITHDRAWAL_COLUMNS, applyWithdrawalEvent, type WithdrawalRow } from './withdraw.service.ts'

// USDT's `transfer` returns nothing on Ethereum: encode the call without expecting a result.
const TOKEN_ABI = parseAbi(['function transfer(address to, uint256 value)'])
const LOCK_KEY = 7_001_014
const PAYOUT_GAS = 120_000n

export interface SenderReport {
  skipped?: 'locked' | 'not_configured'
  broadcast: number
  confirmed: number
  completed: number
  failed: number
}

/**
 * Pays approved withdrawals from the hot wallet. The signed transaction is recorded before it
 * is broadcast, so a crash in between re-sends the very same transaction (same nonce, same
 * hash) and never pays twice. A mined payout is *confirmed* (5), then *completed* (2) at the
 * confirmation depth, which posts the reservation; a reverted payout is *failed* (4) and
 * refunded.
 */
export function createWithdrawalSender(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  client: PublicClient
  chainId: number
  hotWallet: LocalAccount
  /** Test hook: runs after a payout is recorded and before it is broadcast. */
  afterRecord?: (withdrawalId: number) => void
}) {
  const { pool, ledger, settings, client, chainId, hotWallet } = deps

  async function inTransaction<T>(q: pg.PoolClient, work: () => Promise<T>): Promise<T> {
    await q.query('BEGIN')
    try {
      const result = await work()
      await q.query('COMMIT')
      return result
    } catch (e) {
      await q.query('ROLLBACK').catch(() => {})
      throw e
    }
  }

  async function broadcast(raw: string): Promise<void> {
    try {
      await client.sendRawTransaction({ serializedTransaction: raw as `0x${string}` })
    } catch (e) {
      // Already in the mempool or already mined: the same transaction, nothing new to send.
      const text = String((e as Error).message).toLowerCase()
      if (!/already known|nonce too low|already imported|known transaction/.test(text)) throw e
    }
  }

  async function receiptOf(hash: string) {
    return client.getTransactionReceipt({ hash: hash as `0x${string}` }).catch(() => null)
  }

  async function tick(): Promise<SenderReport> {
    const report: SenderReport = { broadcast: 0, confirmed: 0, completed: 0, failed: 0 }
    const s = await settings.get()
    if (!s.chainTokenAddress) return { ...report, skipped: 'not_configured' }
    const ran = await withAdvisoryLock(pool, [LOCK_KEY, chainId], async (q) => {
      const approved = await q.query<WithdrawalRow>(
        `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE status = $1 AND chain_id = $2 ORDER BY id`,
        [S.reviewPassed, chainId],
      )
      for (const row of approved.rows) {
        let hash = row.txHash
        if (!row.rawTx) {
          // Earlier payouts are all broadcast by now (this loop goes in id order), so the
          // pending nonce is the next free one.
          const nonce = await client.getTransactionCount({
            address: hotWallet.address,
            blockTag: 'pending',
          })
          const raw = await hotWallet.signTransaction({
            chainId,
            type: 'eip1559',
            to: s.chainTokenAddress as Address,
            data: encodeFunctionData({
              abi: TOKEN_ABI,
              functionName: 'transfer',
              args: [
                row.toAddress as Address,
                parseUnits(row.amount.replace(/\.?0+$/, ''), s.chainTokenDecimals),
              ],
            }),
            nonce,
            gas: PAYOUT_GAS,
            maxFeePerGas: (await client.getGasPrice()) * 2n,
            maxPriorityFeePerGas: 1_000_000_000n,
          })
          hash = keccak256(raw)
          await q.query(
            'UPDATE withdrawals SET raw_tx = $2, tx_hash = $3, updated_at = now() WHERE id = $1 AND raw_tx IS NULL',
            [row.id, raw, hash],
          )
          deps.afterRecord?.(row.id)
          await broadcast(raw)
          report.broadcast += 1
        } else if (!(await receiptOf(row.txHash!))) {
          await broadcast(row.rawTx)
          report.broadcast += 1
        }
        const receipt = await receiptOf(hash!)
        if (!receipt) continue
        await inTransaction(q, async () => {
          const current = (
            await q.query<WithdrawalRow>(
              `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1 FOR UPDATE`,
              [row.id],
            )
          ).rows[0]!
          if (receipt.status === 'success') {
            await applyWithdrawalEvent(q, ledger, current, 'confirm')
            await q.query('UPDATE withdrawals SET tx_block = $2 WHERE id = $1', [
              row.id,
              String(receipt.blockNumber),
            ])
            report.confirmed += 1
          } else {
            await applyWithdrawalEvent(q, ledger, current, 'fail', { failure: 'payout reverted' })
            report.failed += 1
          }
        })
      }

      const head = await client.getBlockNumber({ cacheTime: 0 })
      const mined = await q.query<WithdrawalRow>(
        `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE status = $1 AND chain_id = $2 ORDER BY id`,
        [S.confirmed, chainId],
      )
      for (const row of mined.rows) {
        if (!isConfirmed(BigInt(row.txBlock!), head, s.chainConfirmations)) continue
        const receipt = await receiptOf(row.txHash!)
        if (
          !receipt ||
          receipt.status !== 'success' ||
          String(receipt.blockNumber) !== row.txBlock
        ) {
          // Reorganised out before the depth: back to review passed, re-sent as recorded.
          await inTransaction(q, async () => {
            const current = (
              await q.query<WithdrawalRow>(
                `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1 FOR UPDATE`,
                [row.id],
              )
            ).rows[0]!
            await applyWithdrawalEvent(q, ledger, current, 'reorg')
            await q.query('UPDATE withdrawals SET tx_block = NULL WHERE id = $1', [row.id])
          })
          continue
        }
        await inTransaction(q, async () => {
          const current = (
            await q.query<WithdrawalRow>(
              `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1 FOR UPDATE`,
              [row.id],
            )
          ).rows[0]!
          await applyWithdrawalEvent(q, ledger, current, 'complete')
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
