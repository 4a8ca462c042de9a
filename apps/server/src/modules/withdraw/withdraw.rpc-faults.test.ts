import { parseTransaction, type Address, type Hex, type PublicClient } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import { LOCAL_ROLES, devAccount, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { financeOperator, payoutServices, tokenBalance } from '../../testing/payouts.ts'
import {
  databaseTargets,
  fundAccount,
  insertTestUser,
  useTestDatabase,
} from '../../testing/index.ts'
import { startRpcProxy, type RpcFault, type RpcProxy } from '../../testing/rpc-proxy.ts'
import { openAlarms } from '../alarm/alarm.repository.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import type { SenderLog } from './withdraw.sender.ts'

const CONFIRMATIONS = 2
const FAULTS: RpcFault[] = ['http_500', 'rpc_error', 'hang']
const hot = devAccount(LOCAL_ROLES.hotWallet)

describe.each(databaseTargets())('withdrawal sender behind a failing RPC on $name', (target) => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let proxy: RpcProxy
  /** Straight to Anvil: the test's own moves, never faulted. */
  let direct: PublicClient
  const t = useTestDatabase(target)
  let operatorId: number
  const errors: { extra: object; msg: string }[] = []
  let n = 0

  const log: SenderLog = { warn: () => {}, error: (extra, msg) => errors.push({ extra, msg }) }
  const services = () => {
    const { withdrawals, sender } = payoutServices(t.db.pool, anvil.chainId)
    return {
      withdrawals,
      // A short timeout so that a hanging node fails the call within the test.
      sender: sender({ client: fixture.clientVia(proxy.url), log }),
    }
  }
  let fixture: ChainFixture
  const mine = (blocks: number) => fixture.mine(blocks)
  const row = async (id: number) =>
    (
      await t.db.pool.query(
        'SELECT status, tx_hash AS "txHash", raw_tx AS "rawTx", tx_block::text AS "txBlock" FROM withdrawals WHERE id = $1',
        [id],
      )
    ).rows[0] as { status: number; txHash: string; rawTx: Hex; txBlock: string | null }
  const paidTo = (address: Address) => tokenBalance(direct, setup.tokenAddress, address)

  /** An approved withdrawal of `amount` USDT to a fresh address. */
  async function approved(amount: string) {
    const { withdrawals } = services()
    const user = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, user.id, '100')
    const w = await withdrawals.request(user, {
      amount,
      idempotencyKey: `rpc-fault-${++n}-${Date.now()}`,
    })
    await withdrawals.review(operatorId, { id: w.id, decision: 'approve' })
    return { id: w.id, to: user.userName as Address }
  }

  /** Healthy ticks until the payout reaches `status`: a receipt may take a moment. */
  async function tickUntil(id: number, status: number) {
    for (let i = 0; i < 20 && (await row(id)).status !== status; i++) {
      await services().sender.tick()
      if ((await row(id)).status !== status) await new Promise((r) => setTimeout(r, 100))
    }
    return (await row(id)).status
  }

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup, client: direct } = fixture)
    proxy = await startRpcProxy(anvil.url)
    await fixture.configure(t.db.pool, CONFIRMATIONS)
    operatorId = await financeOperator(t.db.pool, 'rpc-fin')
  })
  // A failed assertion must not leave the fault on for the next test.
  afterEach(() => proxy?.heal())
  afterAll(async () => {
    await proxy?.close()
    await fixture?.stop()
  })

  test('a failing receipt read leaves a payout in its state, never reorged; healed, it completes once', async () => {
    const w = await approved('20')
    const nonceBefore = await direct.getTransactionCount({ address: hot.address })

    // Broadcast, then the receipt cannot be read: still review passed, recorded, not re-signed.
    proxy.fail('eth_getTransactionReceipt', 'http_500')
    await expect(services().sender.tick()).rejects.toThrow()
    proxy.heal()
    const recorded = await row(w.id)
    expect(recorded).toMatchObject({ status: 1, txHash: expect.stringMatching(/^0x/) })

    expect(await tickUntil(w.id, 5)).toBe(5)
    const confirmed = await row(w.id)
    expect(confirmed.txHash).toBe(recorded.txHash)

    // At the depth the sender reads the receipt again: a failed read is no reorg.
    await mine(CONFIRMATIONS)
    for (const fault of FAULTS) {
      const before = proxy.faulted('eth_getTransactionReceipt')
      proxy.fail('eth_getTransactionReceipt', fault)
      const tick = await services()
        .sender.tick()
        .then(
          () => 'finished',
          () => 'abandoned',
        )
      proxy.heal()
      expect(await row(w.id), fault).toEqual(confirmed)
      expect(tick, fault).toBe('abandoned')
      expect(proxy.faulted('eth_getTransactionReceipt'), fault).toBeGreaterThan(before)
    }

    expect(await tickUntil(w.id, 2)).toBe(2)
    expect(await paidTo(w.to)).toBe(20_000_000n)
    expect(await direct.getTransactionCount({ address: hot.address })).toBe(nonceBefore + 1)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('a payout whose nonce another transaction of the hot wallet used raises an operator alarm', async () => {
    const w = await approved('15')
    // Recorded, but the broadcast fails: the signed payout waits with its nonce.
    proxy.fail('eth_sendRawTransaction', 'http_500')
    await expect(services().sender.tick()).rejects.toThrow()
    proxy.heal()
    const recorded = await row(w.id)
    const nonce = parseTransaction(recorded.rawTx).nonce!
    expect(await direct.getTransaction({ hash: recorded.txHash as Hex }).catch(() => null)).toBe(
      null,
    )

    // Meanwhile someone with the hot wallet's key sends another transaction with that nonce.
    const wallet = fixture.wallet(LOCAL_ROLES.hotWallet)
    const foreign = await wallet.sendTransaction({ to: devAccount(9).address, value: 1n, nonce })
    await direct.waitForTransactionReceipt({ hash: foreign, pollingInterval: 50 })

    const report = await services().sender.tick()
    expect(report).toMatchObject({ broadcast: 0, confirmed: 0 })
    expect(await row(w.id)).toMatchObject({ status: 1, txHash: recorded.txHash })
    const alarms = await openAlarms(t.db.pool)
    expect(alarms).toEqual([
      {
        id: expect.any(Number),
        kind: 'payout_nonce_taken',
        message: expect.stringContaining(`Withdrawal ${w.id}: nonce ${nonce}`),
        detail: {
          withdrawalId: w.id,
          txHash: recorded.txHash,
          nonce,
          hotWallet: hot.address,
        },
        raisedAt: expect.any(String),
      },
    ])
    expect(errors).toEqual([
      { extra: alarms[0]!.detail, msg: expect.stringContaining('nonce used by another') },
    ])

    // Once: the next ticks find the same condition and raise nothing new; the payout stays
    // unpaid and later payouts go out with the next nonces.
    const next = await approved('10')
    await services().sender.tick()
    expect(await tickUntil(next.id, 5)).toBe(5)
    expect(await paidTo(next.to)).toBe(10_000_000n)
    expect(await openAlarms(t.db.pool)).toEqual(alarms)
    expect(errors).toHaveLength(1)
    expect(await row(w.id)).toMatchObject({ status: 1 })
    expect(await paidTo(w.to)).toBe(0n)
  })
})
