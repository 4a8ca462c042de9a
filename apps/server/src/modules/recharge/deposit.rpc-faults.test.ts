import type { Address, PublicClient } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import { devAccount, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { databaseTargets, insertTestUser, useTestDatabase } from '../../testing/index.ts'
import { startRpcProxy, type RpcFault, type RpcProxy } from '../../testing/rpc-proxy.ts'
import { createLedgerService } from '../ledger/ledger.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createDepositWatcher } from './deposit.watcher.ts'

const CONFIRMATIONS = 3
const FAULTS: RpcFault[] = ['http_500', 'rpc_error', 'hang']

describe.each(databaseTargets())('deposit watcher behind a failing RPC on $name', (target) => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let proxy: RpcProxy
  /** Straight to Anvil: the test's own moves, never faulted. */
  let direct: PublicClient
  const t = useTestDatabase(target)
  let watcher: ReturnType<typeof createDepositWatcher>
  let alice: { id: number }

  let fixture: ChainFixture
  const rpc = (method: string, params: unknown[] = []) => fixture.rpc(method, params)
  const mine = (blocks: number) => fixture.mine(blocks)
  const transfer = async (to: Address, amount: string) =>
    (await fixture.sendUsdt(3, to, amount)).hash

  /** Everything a reorg walk-back would change: deposits, holds, the cursor, block hashes. */
  async function chainBooks() {
    const q = (sql: string) => t.db.pool.query(sql).then((r) => r.rows)
    return {
      deposits: await q(
        'SELECT id::int, status, pending_transfer_id::text AS pending FROM deposits ORDER BY id',
      ),
      voids: await q(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'void_pending'`),
      cursor: await q('SELECT block_number::text AS n FROM chain_cursors'),
      blocks: await q('SELECT number::text AS n, hash FROM chain_blocks ORDER BY number'),
      alice: await q(
        `SELECT balance::text AS b, credits_pending::text AS p FROM ledger_accounts WHERE user_id = ${alice.id} AND kind = 'usdt'`,
      ),
    }
  }

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup, client: direct } = fixture)
    proxy = await startRpcProxy(anvil.url)
    const settings = await fixture.configure(t.db.pool, CONFIRMATIONS)
    watcher = createDepositWatcher({
      pool: t.db.pool,
      ledger: createLedgerService(t.db.pool),
      settings,
      // A short timeout so that a hanging node fails the call within the test.
      client: fixture.clientVia(proxy.url),
      chainId: anvil.chainId,
    })
    alice = await insertTestUser(t.db.pool, { address: devAccount(3).address })
  })
  // A failed assertion must not leave the fault on for the next test.
  afterEach(() => proxy?.heal())
  afterAll(async () => {
    await proxy?.close()
    await fixture?.stop()
  })

  test('a failing block read neither voids a held deposit nor rewinds; healed, it is credited once', async () => {
    await transfer(setup.depositAddress, '100')
    expect((await watcher.tick()).seen).toBe(1)
    const held = await chainBooks()
    expect(held.deposits).toEqual([
      { id: expect.any(Number), status: 'on_chain', pending: expect.any(String) },
    ])
    expect(held.alice).toEqual([{ b: '0.000000000000000000', p: '100.000000000000000000' }])

    for (const fault of FAULTS) {
      await mine(1)
      const before = proxy.faulted('eth_getBlockByNumber')
      proxy.fail('eth_getBlockByNumber', fault)
      await expect(watcher.tick(), fault).rejects.toThrow()
      proxy.heal()
      expect(proxy.faulted('eth_getBlockByNumber'), fault).toBeGreaterThan(before)
      expect(await chainBooks(), fault).toEqual(held)
    }

    expect((await watcher.tick()).credited).toBe(1)
    expect((await chainBooks()).alice).toEqual([
      { b: '100.000000000000000000', p: '0.000000000000000000' },
    ])
    const credits = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
       WHERE e.user_id = $1 AND t.log_type = 12`,
      [alice.id],
    )
    expect(credits.rows[0].n).toBe(1)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('a failing receipt read leaves a recharge claim open; healed, the real answer settles it', async () => {
    // A real transfer, but to another address: not a recharge once the node is asked.
    const hash = await transfer(devAccount(9).address, '1')
    await t.db.pool.query(
      `INSERT INTO recharge_claims (user_id, chain_id, tx_hash, status, created_at)
       VALUES ($1, $2, $3, 'on_chain', now() - interval '2 days')`,
      [alice.id, anvil.chainId, hash.toLowerCase()],
    )
    const claim = async () =>
      (
        await t.db.pool.query('SELECT status, failure FROM recharge_claims WHERE tx_hash = $1', [
          hash.toLowerCase(),
        ])
      ).rows[0]

    for (const fault of FAULTS) {
      const before = proxy.faulted('eth_getTransactionReceipt')
      proxy.fail('eth_getTransactionReceipt', fault)
      await expect(watcher.tick(), fault).rejects.toThrow()
      proxy.heal()
      expect(proxy.faulted('eth_getTransactionReceipt'), fault).toBeGreaterThan(before)
      expect(await claim(), fault).toEqual({ status: 'on_chain', failure: null })
    }

    expect((await watcher.tick()).failedClaims).toBe(1)
    expect(await claim()).toEqual({
      status: 'failed',
      failure: 'not a transfer of the token to the deposit address',
    })
  })

  test('a node behind its peers answering null for a processed block is behind, not a reorg', async () => {
    await transfer(setup.depositAddress, '5')
    expect((await watcher.tick()).seen).toBe(1)
    const held = await chainBooks()
    proxy.fail('eth_getBlockByNumber', 'null')
    for (let i = 0; i < 3; i++) {
      const report = await watcher.tick()
      expect(report).toMatchObject({ skipped: 'node_behind', reorged: 0 })
    }
    proxy.heal()
    expect(await chainBooks()).toEqual(held)
    expect((await watcher.tick()).reorged).toBe(0)
    await mine(CONFIRMATIONS)
    expect((await watcher.tick()).credited).toBe(1)
  })

  test('a chain rolled back below a processed block waits; grown back with other hashes, it is a reorg', async () => {
    await transfer(setup.depositAddress, '5')
    expect((await watcher.tick()).seen).toBe(1)
    // Back below the deposit's block: the node has no block at the stored top any more.
    const head = await direct.getBlockNumber({ cacheTime: 0 })
    await rpc('anvil_rollback', [2])
    expect(await direct.getBlockNumber({ cacheTime: 0 })).toBe(head - 2n)
    expect(await watcher.tick()).toMatchObject({ skipped: 'node_behind', reorged: 0 })
    expect((await chainBooks()).deposits.at(-1)).toMatchObject({ status: 'on_chain' })
    await mine(3)
    expect((await watcher.tick()).reorged).toBe(1)
    expect((await chainBooks()).deposits.at(-1)).toMatchObject({ status: 'reorged', pending: null })
  })
})
