import { formatUnits, parseTransaction, type Hex, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import { connectChain } from '../../chain/chain.service.ts'
import type { LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import {
  approvedWithdrawal,
  payoutServices,
  payoutState,
  tokenBalance,
} from '../../testing/payouts.ts'
import { databaseTargets, keyMaker, useTestDatabase } from '../../testing/index.ts'
import { createSettingsService } from '../settings/settings.service.ts'

const CONFIRMATIONS = 2
const REPLACE_AFTER = 3

/** Payouts when fees move: a fee spike leaves a payout pending, and it is replaced. */
describe('payout fees on a local chain', () => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let client: PublicClient
  let fixture: ChainFixture
  const t = useTestDatabase(databaseTargets()[0]!)
  const key = keyMaker('fees')
  const settings = () => createSettingsService(t.db.pool)
  const rpc = (method: string, params: unknown[] = []) => fixture.rpc(method, params)

  const services = () => {
    const { withdrawals, notices, sender } = payoutServices(t.db.pool, anvil.chainId)
    return { withdrawals, sender: () => sender({ client, notices }) }
  }
  const row = (id: number) => payoutState(t.db.pool, id)
  const onChain = (address: string) => tokenBalance(client, setup.tokenAddress, address)
  /** Mines `blocks` blocks, each with a base fee of `baseFee` wei. */
  async function mineAt(baseFee: bigint, blocks: number) {
    for (let i = 0; i < blocks; i++) {
      await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${baseFee.toString(16)}`])
      await fixture.mine(1)
    }
  }
  const approved = (amount: string) =>
    approvedWithdrawal(t.db.pool, anvil.chainId, amount, {
      idempotencyKey: key(),
      operator: 'fees-fin',
    })

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup } = fixture)
    client = connectChain(anvil.url, anvil.chainId).client
    await fixture.configure(t.db.pool, CONFIRMATIONS)
    await settings().set('payoutReplaceAfterBlocks', REPLACE_AFTER, 'test')
    await settings().set('payoutFeeBumpPercent', 25, 'test')
  })
  afterAll(async () => {
    await rpc('evm_setAutomine', [true]).catch(() => {})
    await fixture?.stop()
  })

  test('a payout left pending by a fee spike is replaced with the same nonce and higher fees, and paid once', async () => {
    const { user, id } = await approved('20')
    const before = await onChain(user.userName)
    // Sent while fees are low, then the base fee jumps above what it offers.
    await rpc('evm_setAutomine', [false])
    await services().sender().tick()
    const first = await row(id)
    expect(first).toMatchObject({ status: 1, replacements: 0 })
    const sent = parseTransaction(first.raw!)
    const spike = sent.maxFeePerGas! + 1_000_000_000n
    await mineAt(spike, REPLACE_AFTER)
    expect(
      await client.getTransactionReceipt({ hash: first.hash as Hex }).catch(() => null),
    ).toBeNull()

    // Not mined within payoutReplaceAfterBlocks: replaced, same nonce, both fees up ≥ 12.5%.
    await services().sender().tick()
    const second = await row(id)
    expect(second.replacements).toBe(1)
    expect(second.hash).not.toBe(first.hash)
    const replacement = parseTransaction(second.raw!)
    expect(replacement.nonce).toBe(sent.nonce)
    expect(replacement.maxFeePerGas! * 1000n).toBeGreaterThanOrEqual(sent.maxFeePerGas! * 1125n)
    expect(replacement.maxPriorityFeePerGas! * 1000n).toBeGreaterThanOrEqual(
      sent.maxPriorityFeePerGas! * 1125n,
    )

    await mineAt(spike, 1)
    await rpc('evm_setAutomine', [true])
    for (let i = 0; i < 10 && (await row(id)).status !== 5; i++) await services().sender().tick()
    expect(await row(id)).toMatchObject({ status: 5, hash: second.hash })
    expect(await onChain(user.userName)).toBe(before + 20_000_000n)
    await fixture.mine(CONFIRMATIONS + 1)
    await services().sender().tick()
    expect((await row(id)).status).toBe(2)
    expect(await onChain(user.userName)).toBe(before + 20_000_000n)
  })

  test('a payout stuck at the fee cap is not replaced: an alarm tells operators once', async () => {
    const { id } = await approved('15')
    await rpc('evm_setAutomine', [false])
    try {
      await services().sender().tick()
      const first = await row(id)
      const sent = parseTransaction(first.raw!)
      // The cap is what the payout offers already: no room for a raise.
      await settings().set('payoutMaxFeeGwei', formatUnits(sent.maxFeePerGas!, 9), 'test')
      await mineAt(sent.maxFeePerGas! + 1_000_000_000n, REPLACE_AFTER)
      await services().sender().tick()
      await services().sender().tick()
      expect(await row(id)).toMatchObject({ status: 1, hash: first.hash, replacements: 0 })
      const alarms = await t.db.pool.query(
        `SELECT kind FROM operator_alarms WHERE kind = 'payout_stuck'`,
      )
      expect(alarms.rows).toEqual([{ kind: 'payout_stuck' }])

      // The cap raised: replaced on the next run, mined, and the alarm ends.
      await settings().set('payoutMaxFeeGwei', '500', 'test')
      await services().sender().tick()
      expect((await row(id)).replacements).toBe(1)
      await mineAt(sent.maxFeePerGas! + 1_000_000_000n, 1)
      for (let i = 0; i < 10 && (await row(id)).status !== 5; i++) await services().sender().tick()
      expect((await row(id)).status).toBe(5)
      const open = await t.db.pool.query(
        `SELECT 1 FROM operator_alarms WHERE kind = 'payout_stuck' AND resolved_at IS NULL`,
      )
      expect(open.rowCount).toBe(0)
    } finally {
      await settings().set('payoutMaxFeeGwei', '500', 'test')
      await rpc('evm_setAutomine', [true])
    }
  })
})
