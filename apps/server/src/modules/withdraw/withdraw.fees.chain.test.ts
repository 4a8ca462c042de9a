import { formatUnits, parseTransaction, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { databaseTargets, useTestDatabase } from '../../testing/index.ts'
import { usePayoutFeeChain } from '../../testing/payouts.ts'

const CONFIRMATIONS = 2
const REPLACE_AFTER = 3

/** Payouts when fees move: a fee spike leaves a payout pending, and it is replaced. */
describe('payout fees on a local chain', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  const chain = usePayoutFeeChain(t, {
    confirmations: CONFIRMATIONS,
    replaceAfterBlocks: REPLACE_AFTER,
    operator: 'fees-fin',
  })
  const { rpc, row, onChain, approved, sender, settings } = chain
  /** Mines `blocks` blocks, each with a base fee of `baseFee` wei. */
  async function mineAt(baseFee: bigint, blocks: number) {
    for (let i = 0; i < blocks; i++) {
      await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${baseFee.toString(16)}`])
      await chain.fixture.mine(1)
    }
  }

  test('a payout left pending by a fee spike is replaced with the same nonce and higher fees, and paid once', async () => {
    const { user, id } = await approved('20')
    const before = await onChain(user.userName)
    // Sent while fees are low, then the base fee jumps above what it offers.
    await rpc('evm_setAutomine', [false])
    await sender().tick()
    const first = await row(id)
    expect(first).toMatchObject({ status: 1, replacements: 0 })
    const sent = parseTransaction(first.raw!)
    const spike = sent.maxFeePerGas! + 1_000_000_000n
    await mineAt(spike, REPLACE_AFTER)
    expect(
      await chain.client.getTransactionReceipt({ hash: first.hash as Hex }).catch(() => null),
    ).toBeNull()

    // Not mined within payoutReplaceAfterBlocks: replaced, same nonce, both fees up ≥ 12.5%.
    await sender().tick()
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
    for (let i = 0; i < 10 && (await row(id)).status !== 5; i++) await sender().tick()
    expect(await row(id)).toMatchObject({ status: 5, hash: second.hash })
    expect(await onChain(user.userName)).toBe(before + 20_000_000n)
    await chain.fixture.mine(CONFIRMATIONS + 1)
    await sender().tick()
    expect((await row(id)).status).toBe(2)
    expect(await onChain(user.userName)).toBe(before + 20_000_000n)
  })

  test('a payout stuck at the fee cap is not replaced: an alarm tells operators once', async () => {
    const { id } = await approved('15')
    await rpc('evm_setAutomine', [false])
    try {
      await sender().tick()
      const first = await row(id)
      const sent = parseTransaction(first.raw!)
      // The cap is what the payout offers already: no room for a raise.
      await settings().set('payoutMaxFeeGwei', formatUnits(sent.maxFeePerGas!, 9), 'test')
      await mineAt(sent.maxFeePerGas! + 1_000_000_000n, REPLACE_AFTER)
      await sender().tick()
      await sender().tick()
      expect(await row(id)).toMatchObject({ status: 1, hash: first.hash, replacements: 0 })
      const alarms = await t.db.pool.query(
        `SELECT kind FROM operator_alarms WHERE kind = 'payout_stuck'`,
      )
      expect(alarms.rows).toEqual([{ kind: 'payout_stuck' }])

      // The cap raised: replaced on the next run, mined, and the alarm ends.
      await settings().set('payoutMaxFeeGwei', '500', 'test')
      await sender().tick()
      expect((await row(id)).replacements).toBe(1)
      await mineAt(sent.maxFeePerGas! + 1_000_000_000n, 1)
      for (let i = 0; i < 10 && (await row(id)).status !== 5; i++) await sender().tick()
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
