import { encodeFunctionData, erc20Abi, type Address, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import { connectChain } from '../../chain/chain.service.ts'
import { LOCAL_ROLES, devAccount, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { payoutServices } from '../../testing/payouts.ts'
import {
  databaseTargets,
  fundAccount,
  insertTestUser,
  keyMaker,
  useTestDatabase,
} from '../../testing/index.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createSettingsService } from '../settings/settings.service.ts'
import { reconcileChain } from '../reconcile/reconcile.service.ts'

const CONFIRMATIONS = 2

describe('withdrawal payouts on a local chain', () => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let client: PublicClient
  const t = useTestDatabase(databaseTargets()[0]!)
  const key = keyMaker('payout')

  const services = () => {
    const { withdrawals, notices, sender } = payoutServices(t.db.pool, anvil.chainId)
    return {
      withdrawals,
      sender: (afterRecord?: (id: number) => void) =>
        sender({ client, notices, ...(afterRecord ? { afterRecord } : {}) }),
    }
  }
  const onChain = async (address: string) =>
    client.readContract({
      address: setup.tokenAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address as Address],
    })
  let fixture: ChainFixture
  const mine = (blocks: number) => fixture.mine(blocks)
  const statusOf = async (id: number) =>
    (await t.db.pool.query('SELECT status FROM withdrawals WHERE id = $1', [id])).rows[0]
      .status as number
  const usdtOf = async (userId: number) =>
    (
      await t.db.pool.query(
        `SELECT balance::text AS b, debits_pending::text AS p FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [userId],
      )
    ).rows[0] as { b: string; p: string }

  /** Approves withdrawal `id` as the finance operator 'payout-fin' (made on first use). */
  async function approve(withdrawals: ReturnType<typeof services>['withdrawals'], id: number) {
    await t.db.pool.query(
      `INSERT INTO operators (username, password_hash, role) VALUES ('payout-fin', 'x', 'finance') ON CONFLICT DO NOTHING`,
    )
    const op = (
      await t.db.pool.query(`SELECT id::int FROM operators WHERE username = 'payout-fin'`)
    ).rows[0].id as number
    await withdrawals.review(op, { id, decision: 'approve' })
  }

  /** Ticks until `status` or a few tries: a receipt may take a moment on a busy machine. */
  async function tickUntil(id: number, status: number) {
    for (let i = 0; i < 20 && (await statusOf(id)) !== status; i++) {
      await services().sender().tick()
      if ((await statusOf(id)) !== status) await new Promise((r) => setTimeout(r, 100))
    }
    return statusOf(id)
  }

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup } = fixture)
    client = connectChain(anvil.url, anvil.chainId).client
    await fixture.configure(t.db.pool, CONFIRMATIONS)
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('an approved withdrawal is paid once, confirmed, then completed at the depth', async () => {
    const { withdrawals, sender } = services()
    const user = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, user.id, '100')
    const w = await withdrawals.request(user, { amount: '20', idempotencyKey: key() })
    await approve(withdrawals, w.id)

    const before = await onChain(user.userName)
    const hotBefore = await onChain(devAccount(LOCAL_ROLES.hotWallet).address)
    expect(await tickUntil(w.id, 5)).toBe(5)
    expect(await onChain(user.userName)).toBe(before + 20_000_000n)
    await mine(CONFIRMATIONS)
    expect(await tickUntil(w.id, 2)).toBe(2)
    expect(await usdtOf(user.id)).toEqual({ b: '79.000000000000000000', p: '0.000000000000000000' })
    // The user's bell says it was paid, with the payout's hash.
    const paid = await t.db.pool.query(
      `SELECT detail FROM security_notices WHERE user_id = $1 AND kind = 'withdrawal_paid'`,
      [user.id],
    )
    expect(paid.rows.map((r) => r.detail)).toEqual([
      expect.objectContaining({
        amount: '20',
        withdrawalId: w.id,
        txHash: expect.stringMatching(/^0x/),
      }),
    ])
    await sender().tick()
    expect(await onChain(devAccount(LOCAL_ROLES.hotWallet).address)).toBe(hotBefore - 20_000_000n)
  })

  test('a sender killed between recording and broadcasting sends exactly once after restart', async () => {
    const { withdrawals, sender } = services()
    const user = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, user.id, '50')
    const w = await withdrawals.request(user, { amount: '15', idempotencyKey: key() })
    await approve(withdrawals, w.id)
    const before = await onChain(user.userName)
    const nonceBefore = await client.getTransactionCount({
      address: devAccount(LOCAL_ROLES.hotWallet).address,
    })

    await expect(
      sender(() => {
        throw new Error('killed')
      }).tick(),
    ).rejects.toThrow('killed')
    const recorded = (
      await t.db.pool.query('SELECT tx_hash FROM withdrawals WHERE id = $1', [w.id])
    ).rows[0].tx_hash as string
    expect(recorded).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await onChain(user.userName)).toBe(before)

    expect(await tickUntil(w.id, 5)).toBe(5)
    await sender().tick()
    expect(await onChain(user.userName)).toBe(before + 15_000_000n)
    expect(
      await client.getTransactionCount({ address: devAccount(LOCAL_ROLES.hotWallet).address }),
    ).toBe(nonceBefore + 1)
    const receipt = await client.getTransactionReceipt({ hash: recorded as `0x${string}` })
    expect(receipt.status).toBe('success')
  })

  test('a payout that reverts is failed and refunded once', async () => {
    const { withdrawals, sender } = services()
    const user = await insertTestUser(t.db.pool)
    // More than the hot wallet holds: the token's transfer reverts. That is above the default
    // withdrawal limits too, which are raised for it.
    const settings = createSettingsService(t.db.pool)
    await settings.set('withdrawDailyLimitUsdt', '1000000', 'test')
    await settings.set('withdrawMonthlyLimitUsdt', '1000000', 'test')
    await fundAccount(t.db.pool, user.id, '500000')
    const w = await withdrawals.request(user, { amount: '400000', idempotencyKey: key() })
    await approve(withdrawals, w.id)
    expect(await tickUntil(w.id, 4)).toBe(4)
    expect(await usdtOf(user.id)).toEqual({
      b: '500000.000000000000000000',
      p: '0.000000000000000000',
    })
    await sender().tick()
    expect(await usdtOf(user.id)).toEqual({
      b: '500000.000000000000000000',
      p: '0.000000000000000000',
    })
  })

  test('the ledger verifies clean and the chain reconciles with the books', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
    const report = await reconcileChain({
      pool: t.db.pool,
      settings: createSettingsService(t.db.pool),
      client,
      chainId: anvil.chainId,
      hotWallet: devAccount(LOCAL_ROLES.hotWallet).address,
    })
    expect(report.lines.map((l) => l.name)).toContain(
      'hot wallet payouts on chain vs withdrawals paid',
    )
    expect(report.problems).toEqual([])
  })

  test('reconciliation names a payout the books do not know', async () => {
    const hot = devAccount(LOCAL_ROLES.hotWallet)
    const wallet = fixture.wallet(LOCAL_ROLES.hotWallet)
    const stray = await wallet.sendTransaction({
      to: setup.tokenAddress,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [devAccount(9).address, 1_000_000n],
      }),
      gas: 100_000n,
    })
    await client.waitForTransactionReceipt({ hash: stray })
    // A payout that the withdrawal records claim but the chain never saw.
    await t.db.pool.query(
      `UPDATE withdrawals SET tx_hash = '0x' || repeat('ab', 32) WHERE id = (SELECT min(id) FROM withdrawals WHERE status = 2)`,
    )
    const report = await reconcileChain({
      pool: t.db.pool,
      settings: createSettingsService(t.db.pool),
      client,
      chainId: anvil.chainId,
      hotWallet: hot.address,
    })
    expect(
      report.problems.some((p) => p.startsWith('hot wallet payouts on chain vs withdrawals paid')),
    ).toBe(true)
  })
})
