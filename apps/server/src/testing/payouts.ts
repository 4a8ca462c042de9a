import type pg from 'pg'
import { erc20Abi, type Address, type Hex, type PublicClient } from 'viem'
import { createTypedDataVerifier } from '../lib/signature.ts'
import { createLedgerService } from '../modules/ledger/ledger.service.ts'
import { createNoticeService } from '../modules/notice/notice.service.ts'
import { createOutflowService } from '../modules/outflow/outflow.service.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import { createWithdrawalSender, type SenderLog } from '../modules/withdraw/withdraw.sender.ts'
import { createWithdrawService } from '../modules/withdraw/withdraw.service.ts'
import { afterAll, beforeAll } from 'vitest'
import type { startAnvil } from '../chain/anvil.ts'
import { connectChain } from '../chain/chain.service.ts'
import { startChainFixture, type ChainFixture } from './chain-fixture.ts'
import {
  devPayoutSigner,
  fundAccount,
  insertTestUser,
  keyMaker,
  type TestDatabase,
} from './index.ts'

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

/**
 * A local chain for a describe block's payout-fee tests: started before them (Anvil with
 * `opts.anvil`), the database pointed at it with a stuck payout replaced after
 * `replaceAfterBlocks` at a 25% fee bump; automine back on and the chain stopped after them.
 * Its withdrawals are approved by finance operator `opts.operator`.
 */
export function usePayoutFeeChain(
  t: { db: TestDatabase },
  opts: {
    confirmations: number
    replaceAfterBlocks: number
    operator: string
    anvil?: Parameters<typeof startAnvil>[0]
  },
) {
  const key = keyMaker(opts.operator)
  const chain = {
    fixture: undefined as unknown as ChainFixture,
    client: undefined as unknown as PublicClient,
    settings: () => createSettingsService(t.db.pool),
    rpc: (method: string, params: unknown[] = []) => chain.fixture.rpc(method, params),
    /** The payout sender, as the job builds it for each run. */
    sender: () => {
      const { notices, sender } = payoutServices(t.db.pool, chain.fixture.anvil.chainId)
      return sender({ client: chain.client, notices })
    },
    row: (id: number) => payoutState(t.db.pool, id),
    onChain: (address: string) =>
      tokenBalance(chain.client, chain.fixture.setup.tokenAddress, address),
    approved: (amount: string) =>
      approvedWithdrawal(t.db.pool, chain.fixture.anvil.chainId, amount, {
        idempotencyKey: key(),
        operator: opts.operator,
      }),
  }
  beforeAll(async () => {
    chain.fixture = await startChainFixture(opts.anvil)
    const { anvil } = chain.fixture
    chain.client = connectChain(anvil.url, anvil.chainId).client
    await chain.fixture.configure(t.db.pool, opts.confirmations)
    await chain.settings().set('payoutReplaceAfterBlocks', opts.replaceAfterBlocks, 'test')
    await chain.settings().set('payoutFeeBumpPercent', 25, 'test')
  })
  afterAll(async () => {
    if (!chain.fixture) return
    await chain.rpc('evm_setAutomine', [true]).catch(() => {})
    await chain.fixture.stop()
  })
  return chain
}
