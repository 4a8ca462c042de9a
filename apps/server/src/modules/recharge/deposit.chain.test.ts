import { encodeFunctionData, parseUnits, type Address, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import token from '../../chain/contracts/TetherLikeToken.json' with { type: 'json' }
import { devAccount, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { databaseTargets, insertTestUser, useTestDatabase } from '../../testing/index.ts'
import { createLedgerService, type LedgerService } from '../ledger/ledger.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createSettingsService } from '../settings/settings.service.ts'
import { checkTokenDecimals, connectChain } from '../../chain/chain.service.ts'
import { createRechargeService } from './recharge.service.ts'
import { reconcileChain } from '../reconcile/reconcile.service.ts'
import { createDepositWatcher } from './deposit.watcher.ts'

const CONFIRMATIONS = 3

describe('deposit watcher on a local chain', () => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let client: PublicClient
  const t = useTestDatabase(databaseTargets()[0]!)
  let ledger: LedgerService
  let watcher: ReturnType<typeof createDepositWatcher>
  const settings = () => createSettingsService(t.db.pool)

  let fixture: ChainFixture
  const rpc = (method: string, params: unknown[] = []) => fixture.rpc(method, params)
  const mine = (blocks: number) => fixture.mine(blocks)
  /** A token transfer to the deposit address; the raw tx is kept for the reorg tests. */
  const deposit = (fromIndex: number, amount: string, tokenAddress?: Address) =>
    fixture.tokenCall(
      fromIndex,
      'transfer',
      [setup.depositAddress, parseUnits(amount, 6)],
      tokenAddress,
    )

  const usdtOf = async (userId: number) => {
    const r = await t.db.pool.query(
      `SELECT balance::text AS b FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
      [userId],
    )
    return Number(r.rows[0].b)
  }
  const depositRow = async (hash: string) =>
    (
      await t.db.pool.query('SELECT status, amount::text FROM deposits WHERE tx_hash = $1', [
        hash.toLowerCase(),
      ])
    ).rows[0]

  let alice: { id: number }
  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup, client } = fixture)
    ledger = createLedgerService(t.db.pool)
    const s = await fixture.configure(t.db.pool, CONFIRMATIONS)
    watcher = createDepositWatcher({
      pool: t.db.pool,
      ledger,
      settings: s,
      client,
      chainId: anvil.chainId,
    })
    alice = await insertTestUser(t.db.pool, { address: devAccount(3).address })
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('a deposit from a registered address is held, then credited once at the confirmation depth', async () => {
    const before = await usdtOf(alice.id)
    const { hash } = await deposit(3, '100')
    expect((await watcher.tick()).seen).toBe(1)
    expect(await depositRow(hash)).toMatchObject({ status: 'on_chain' })
    expect(await usdtOf(alice.id)).toBe(before)
    await mine(CONFIRMATIONS - 2)
    await watcher.tick()
    expect(await depositRow(hash)).toMatchObject({ status: 'on_chain' })
    await mine(1)
    expect((await watcher.tick()).credited).toBe(1)
    expect(await depositRow(hash)).toMatchObject({ status: 'credited' })
    expect(await usdtOf(alice.id)).toBe(before + 100)
    // Again, and from a fresh watcher as after a restart: nothing twice.
    await mine(5)
    await watcher.tick()
    const restarted = createDepositWatcher({
      pool: t.db.pool,
      ledger,
      settings: settings(),
      client,
      chainId: anvil.chainId,
    })
    await restarted.tick()
    expect(await usdtOf(alice.id)).toBe(before + 100)
    const log = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id WHERE e.user_id = $1 AND t.log_type = 12`,
      [alice.id],
    )
    expect(log.rows[0].n).toBe(1)
  })

  test('a transfer of another token to the deposit address is not credited', async () => {
    const wallet = fixture.wallet(0)
    const deployHash = await wallet.deployContract({
      abi: token.abi,
      bytecode: token.bytecode as `0x${string}`,
      args: ['Fake USD', 'USDT', 6],
    })
    const fake = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
    const mintHash = await wallet.writeContract({
      address: fake,
      abi: token.abi,
      functionName: 'mint',
      args: [devAccount(3).address, parseUnits('500', 6)],
    })
    await client.waitForTransactionReceipt({ hash: mintHash })
    const before = await usdtOf(alice.id)
    const { hash } = await deposit(3, '50', fake)
    await mine(CONFIRMATIONS + 1)
    await watcher.tick()
    expect(await depositRow(hash)).toBeUndefined()
    expect(await usdtOf(alice.id)).toBe(before)
  })

  test('a deposit from an address that is not a user is recorded but not credited', async () => {
    const { hash } = await deposit(5, '7')
    await mine(CONFIRMATIONS)
    await watcher.tick()
    expect(await depositRow(hash)).toMatchObject({
      status: 'unattributed',
      amount: '7.000000000000000000',
    })
  })

  test('a reorg that drops a deposit before its depth voids it; re-included, it is credited once', async () => {
    const before = await usdtOf(alice.id)
    const { raw, hash } = await deposit(3, '30')
    await watcher.tick()
    expect(await depositRow(hash)).toMatchObject({ status: 'on_chain' })

    await rpc('anvil_reorg', [1, []])
    expect((await watcher.tick()).reorged).toBe(1)
    expect(await depositRow(hash)).toMatchObject({ status: 'reorged' })
    await mine(CONFIRMATIONS + 2)
    await watcher.tick()
    expect(await usdtOf(alice.id)).toBe(before)

    // Re-included in the newest block of the new branch: held again from the start.
    await rpc('anvil_reorg', [CONFIRMATIONS + 2, [[raw, CONFIRMATIONS + 1]]])
    await watcher.tick()
    expect(await depositRow(hash)).toMatchObject({ status: 'on_chain' })
    await mine(CONFIRMATIONS)
    await watcher.tick()
    expect(await depositRow(hash)).toMatchObject({ status: 'credited' })
    expect(await usdtOf(alice.id)).toBe(before + 30)
    await mine(2)
    await watcher.tick()
    expect(await usdtOf(alice.id)).toBe(before + 30)
  })

  test('posted recharge hashes: credited when the deposit is, failed when reverted or not a deposit', async () => {
    const recharges = createRechargeService({
      pool: t.db.pool,
      settings: settings(),
      chain: () => connectChain(anvil.url, anvil.chainId),
    })
    const { hash } = await deposit(3, '12')
    expect(await recharges.claim(alice.id, hash)).toMatchObject({
      status: 'on_chain',
      amount: null,
      confirmationsRequired: CONFIRMATIONS,
    })
    await watcher.tick()
    expect(await recharges.claim(alice.id, hash)).toMatchObject({
      status: 'on_chain',
      amount: '12',
      confirmations: 1,
    })
    await mine(CONFIRMATIONS)
    await watcher.tick()
    expect(await recharges.claim(alice.id, hash)).toMatchObject({
      status: 'credited',
      amount: '12',
    })

    // More than the wallet holds: the token's transfer reverts.
    const wallet = fixture.wallet(3)
    const reverted = await wallet.sendTransaction({
      to: setup.tokenAddress,
      data: encodeFunctionData({
        abi: token.abi,
        functionName: 'transfer',
        args: [setup.depositAddress, parseUnits('99999999', 6)],
      }),
      gas: 100_000n,
    })
    await client.waitForTransactionReceipt({ hash: reverted })
    // A token transfer to some other address.
    const elsewhere = await wallet.sendTransaction({
      to: setup.tokenAddress,
      data: encodeFunctionData({
        abi: token.abi,
        functionName: 'transfer',
        args: [devAccount(8).address, parseUnits('1', 6)],
      }),
    })
    await client.waitForTransactionReceipt({ hash: elsewhere })
    await recharges.claim(alice.id, reverted)
    await recharges.claim(alice.id, elsewhere)
    await mine(1)
    await watcher.tick()
    const failures = await t.db.pool.query(
      'SELECT tx_hash, status, failure FROM recharge_claims WHERE tx_hash = ANY($1) ORDER BY failure',
      [[reverted, elsewhere]],
    )
    expect(failures.rows.map((r) => [r.status, r.failure])).toEqual([
      ['failed', 'not a transfer of the token to the deposit address'],
      ['failed', 'reverted'],
    ])
    const list = await recharges.mine(alice.id, { pageNum: 1, pageSize: 10 })
    expect(list.list.filter((r) => r.status === 'failed')).toHaveLength(2)

    // Another user's post of the hash is a claim of their own; it never takes Alice's credit.
    const bob = await insertTestUser(t.db.pool)
    expect(await recharges.claim(bob.id, hash)).toMatchObject({ status: 'on_chain', amount: null })
  })

  test('a token decimals setting that disagrees with the chain stops the start', async () => {
    const chain = connectChain(anvil.url, anvil.chainId)
    await expect(checkTokenDecimals(chain, settings())).resolves.toBeUndefined()
    const wrong = settings()
    await wrong.set('chainTokenDecimals', 18, 'test')
    await expect(checkTokenDecimals(chain, wrong)).rejects.toThrow(/has 6 decimals .* says 18/)
    await wrong.set('chainTokenDecimals', 6, 'test')
  })

  test('the ledger verifies clean and chain deposits balance the credits', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
    await watcher.tick()
    const report = await reconcileChain({
      pool: t.db.pool,
      settings: settings(),
      client,
      chainId: anvil.chainId,
      hotWallet: null,
    })
    expect(report.problems).toEqual([])
    expect(report.lines[1]).toMatchObject({ name: 'credited deposits vs ledger chain deposits' })
  })
})
