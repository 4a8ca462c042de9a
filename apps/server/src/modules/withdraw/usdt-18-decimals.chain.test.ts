import { createWalletClient, erc20Abi, http, parseUnits, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil, type LocalChain } from '../../chain/anvil.ts'
import { connectChain } from '../../chain/chain.service.ts'
import {
  BSC_LIKE_NETWORK,
  configureLocalChain,
  devAccount,
  localChain,
  type LocalChainSetup,
} from '../../chain/local-chain.ts'
import { financeOperator, payoutServices, tokenBalance } from '../../testing/payouts.ts'
import {
  databaseTargets,
  fundAccount,
  insertTestUser,
  keyMaker,
  useTestDatabase,
} from '../../testing/index.ts'
import { createDepositWatcher } from '../recharge/deposit.watcher.ts'
import { createLedgerService } from '../ledger/ledger.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createChainScan } from '../reconcile/reconcile.scan.ts'
import { reconcileChain } from '../reconcile/reconcile.service.ts'
import { createSettingsService } from '../settings/settings.service.ts'

const CONFIRMATIONS = 2

/**
 * A network like BSC on the local chain: chain id 56 and an 18-decimal USDT. Recharge, withdraw
 * and reconciliation run end to end, every amount exact to the token's unit.
 */
describe('an 18-decimal USDT network (chain id 56)', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  const key = keyMaker('bsc')
  let anvil: LocalChain
  let setup: LocalChainSetup
  let client: PublicClient
  const settings = () => createSettingsService(t.db.pool)
  const units = (usdt: string) => parseUnits(usdt, 18)
  const balanceOf = (address: string) => tokenBalance(client, setup.tokenAddress, address)
  const mine = (n: number) =>
    client.request({
      method: 'anvil_mine' as 'eth_chainId',
      params: [`0x${n.toString(16)}`] as never,
    })

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: BSC_LIKE_NETWORK.chainId })
    setup = await configureLocalChain(settings(), anvil.url, {
      freshChain: true,
      network: BSC_LIKE_NETWORK,
    })
    await settings().set('chainConfirmations', CONFIRMATIONS, 'test')
    await settings().set('newAddressHoldHours', 0, 'test')
    client = connectChain(anvil.url, BSC_LIKE_NETWORK.chainId).client
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  test('the chain is 56 and the token has 18 decimals, as the settings say', async () => {
    expect(await client.getChainId()).toBe(56)
    const s = await settings().get()
    expect(s.chainTokenDecimals).toBe(18)
    expect(
      await client.readContract({
        address: setup.tokenAddress,
        abi: erc20Abi,
        functionName: 'decimals',
      }),
    ).toBe(18)
  })

  test('a recharge is credited exactly, a withdrawal paid exactly, and reconciliation is clean', async () => {
    const member = devAccount(3)
    const user = await insertTestUser(t.db.pool, { address: member.address })
    const ledger = createLedgerService(t.db.pool)
    const watcher = createDepositWatcher({
      pool: t.db.pool,
      ledger,
      settings: settings(),
      client,
      chainId: 56,
    })
    // 1.234567 USDT: 1,234,567 × 10^12 units of the token.
    const wallet = createWalletClient({
      chain: localChain(anvil.url, 56),
      transport: http(anvil.url),
      account: member,
    })
    const sent = units('1.234567')
    const hash = await wallet.writeContract({
      address: setup.tokenAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [setup.depositAddress, sent],
    })
    await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    await watcher.tick()
    await mine(CONFIRMATIONS)
    expect((await watcher.tick()).credited).toBe(1)
    const usdt = async () =>
      (
        await t.db.pool.query(
          `SELECT balance::text AS b FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
          [user.id],
        )
      ).rows[0].b
    expect(await usdt()).toBe('1.234567000000000000')
    const row = await t.db.pool.query('SELECT amount::text FROM deposits WHERE tx_hash = $1', [
      hash.toLowerCase(),
    ])
    expect(row.rows[0].amount).toBe('1.234567000000000000')

    // A withdrawal of 25.000001 USDT pays 25,000,001 × 10^12 units, once.
    await fundAccount(t.db.pool, user.id, '100')
    const { withdrawals, notices, sender } = payoutServices(t.db.pool, 56)
    // To the member's own wallet: no wallet signature needed.
    const to = member.address
    const before = await balanceOf(to)
    const w = await withdrawals.request(
      { ...user, userName: member.address.toLowerCase() },
      { amount: '25.000001', idempotencyKey: key() },
    )
    const op = await financeOperator(t.db.pool, 'bsc-fin')
    await withdrawals.review(op, { id: w.id, decision: 'approve' })
    const status = async () =>
      (await t.db.pool.query('SELECT status FROM withdrawals WHERE id = $1', [w.id])).rows[0].status
    for (let i = 0; i < 10 && (await status()) !== 5; i++) await sender({ client, notices }).tick()
    await mine(CONFIRMATIONS)
    await sender({ client, notices }).tick()
    expect(await status()).toBe(2)
    expect((await balanceOf(to)) - before).toBe(units('25.000001'))

    const scan = createChainScan({
      pool: t.db.pool,
      ledger,
      settings: settings(),
      client,
      chainId: 56,
      hotWallet: setup.hotWalletAddress,
    })
    expect(await scan.tick()).toMatchObject({ alarms: 0, payouts: 1 })
    const report = await reconcileChain({
      pool: t.db.pool,
      settings: settings(),
      client,
      chainId: 56,
    })
    expect(report.problems).toEqual([])
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
