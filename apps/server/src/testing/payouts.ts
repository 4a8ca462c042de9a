import type pg from 'pg'
import { erc20Abi, type Address, type Hex, type PublicClient } from 'viem'
import { createTypedDataVerifier } from '../lib/signature.ts'
import { createLedgerService } from '../modules/ledger/ledger.service.ts'
import { createNoticeService } from '../modules/notice/notice.service.ts'
import { createOutflowService } from '../modules/outflow/outflow.service.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import { createWithdrawalSender, type SenderLog } from '../modules/withdraw/withdraw.sender.ts'
import { createWithdrawService } from '../modules/withdraw/withdraw.service.ts'
import { devPayoutSigner, fundAccount, insertTestUser } from './index.ts'

/**
 * The withdrawal service and the payout sender on a test's database and local chain, wired as
 * the app wires them; the sender signs with the local chain's hot wallet.
 */
export function payoutServices(pool: pg.Pool, chainId: number) {
  const settings = createSettingsService(pool)
  const ledger = createLedgerService(pool)
  const notices = createNoticeService({ pool })
  return {
    notices,
    withdrawals: createWithdrawService({
      pool,
      ledger,
      settings,
      notices,
      outflows: createOutflowService({
        settings,
        verify: createTypedDataVerifier(),
        chainId: () => chainId,
      }),
      chainId: () => chainId,
    }),
    sender: (deps: {
      client: PublicClient
      notices?: typeof notices
      afterRecord?: (withdrawalId: number) => void
      log?: SenderLog
    }) =>
      createWithdrawalSender({
        pool,
        ledger,
        settings,
        chainId,
        hotWallet: devPayoutSigner(pool),
        ...deps,
      }),
  }
}

/** The id of finance operator `username`, made on first use. */
export async function financeOperator(pool: pg.Pool, username: string): Promise<number> {
  await pool.query(
    `INSERT INTO operators (username, password_hash, role) VALUES ($1, 'x', 'finance') ON CONFLICT DO NOTHING`,
    [username],
  )
  return (await pool.query(`SELECT id::int FROM operators WHERE username = $1`, [username])).rows[0]
    .id as number
}

/**
 * A new user holding 100 USDT and their withdrawal of `amount` to their own wallet, approved by
 * finance operator `operator`.
 */
export async function approvedWithdrawal(
  pool: pg.Pool,
  chainId: number,
  amount: string,
  opts: { idempotencyKey: string; operator: string },
) {
  const { withdrawals } = payoutServices(pool, chainId)
  const user = await insertTestUser(pool)
  await fundAccount(pool, user.id, '100')
  const w = await withdrawals.request(user, { amount, idempotencyKey: opts.idempotencyKey })
  const op = await financeOperator(pool, opts.operator)
  await withdrawals.review(op, { id: w.id, decision: 'approve' })
  return { user, id: w.id }
}

/** Where withdrawal `id`'s payout stands: its status, the last transaction sent and how often it was replaced. */
export async function payoutState(pool: pg.Pool, id: number) {
  const { rows } = await pool.query(
    `SELECT status, raw_tx AS raw, tx_hash AS hash, payout_replacements AS replacements
     FROM withdrawals WHERE id = $1`,
    [id],
  )
  return rows[0] as { status: number; raw: Hex | null; hash: string | null; replacements: number }
}

/** What `holder` holds of `token` on chain, in the token's units. */
export function tokenBalance(client: PublicClient, token: Address, holder: string) {
  return client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder as Address],
  })
}
