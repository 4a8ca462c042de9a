import { formatUnits, parseTransaction, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { databaseTargets, useTestDatabase } from '../../testing/index.ts'
import { usePayoutFeeChain } from '../../testing/payouts.ts'

const CONFIRMATIONS = 2
const REPLACE_AFTER = 3

/**
 * Payouts on a chain from before London (Anvil at `--hardfork berlin`): its blocks have no base
 * fee, so a payout is a legacy transaction at the chain's gas price, and a stuck one is replaced
 * with the same nonce at a higher gas price.
 */
describe('payout fees on a chain without EIP-1559', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  const chain = usePayoutFeeChain(t, {
    confirmations: CONFIRMATIONS,
    replaceAfterBlocks: REPLACE_AFTER,
    operator: 'legacy-fin',
    anvil: { hardfork: 'berlin' },
  })
  const { rpc, row, onChain, approved, sender, settings } = chain
  const hex = (n: bigint) => `0x${n.toString(16)}`

  /** Ticks until the withdrawal is confirmed (5), then to its depth: completed (2). */
  async function payToTheEnd(id: number) {
    for (let i = 0; i < 10 && (await row(id)).status !== 5; i++) await sender().tick()
    expect((await row(id)).status).toBe(5)
    await chain.fixture.mine(CONFIRMATIONS + 1)
    await sender().tick()
    expect((await row(id)).status).toBe(2)
  }
  /**
   * The chain's gas price rises to `gasPrice`, and the node lets go of the payouts priced under
   * it. Anvil itself mines whatever its pool holds, whatever the price (`anvil_setMinGasPrice`
   * moves only what `eth_gasPrice` answers), so the pool is emptied as such a node would.
   */
  async function gasPriceRisesTo(gasPrice: bigint) {
    await rpc('anvil_setMinGasPrice', [hex(gasPrice)])
    await rpc('anvil_dropAllTransactions')
  }

  test('a withdrawal is paid once with a legacy transaction at the chain gas price', async () => {
    expect((await chain.client.getBlock({ blockTag: 'latest' })).baseFeePerGas).toBeNull()
    const { user, id } = await approved('12')
    const before = await onChain(user.userName)
    const gasPrice = await chain.client.getGasPrice()
    await sender().tick()
    const sent = parseTransaction((await row(id)).raw!)
    expect(sent).toMatchObject({ type: 'legacy', chainId: chain.fixture.anvil.chainId, gasPrice })
    expect(sent.maxFeePerGas).toBeUndefined()
    await payToTheEnd(id)
    expect(await onChain(user.userName)).toBe(before + 12_000_000n)
  })

  test('a payout left pending while the gas price rose is replaced with the same nonce at a higher gas price, and paid once', async () => {
    const { user, id } = await approved('20')
    const before = await onChain(user.userName)
    await rpc('evm_setAutomine', [false])
    try {
      await sender().tick()
      const first = await row(id)
      expect(first).toMatchObject({ status: 1, replacements: 0 })
      const sent = parseTransaction(first.raw!)
      const risen = sent.gasPrice! * 2n
      await gasPriceRisesTo(risen)
      await chain.fixture.mine(REPLACE_AFTER)
      expect(
        await chain.client.getTransactionReceipt({ hash: first.hash as Hex }).catch(() => null),
      ).toBeNull()

      // Not mined within payoutReplaceAfterBlocks: the same nonce at the chain's gas price now,
      // at least 12.5% above the first.
      await sender().tick()
      const second = await row(id)
      expect(second.replacements).toBe(1)
      expect(second.hash).not.toBe(first.hash)
      const replacement = parseTransaction(second.raw!)
      expect(replacement).toMatchObject({ type: 'legacy', nonce: sent.nonce, gasPrice: risen })
      expect(replacement.gasPrice! * 1000n).toBeGreaterThanOrEqual(sent.gasPrice! * 1125n)

      await chain.fixture.mine(1)
      await rpc('evm_setAutomine', [true])
      await payToTheEnd(id)
      expect((await row(id)).hash).toBe(second.hash)
      // The first can never be mined beside it: its nonce is spent.
      await expect(
        chain.client.sendRawTransaction({ serializedTransaction: first.raw! }),
      ).rejects.toThrow(/nonce/i)
      expect(await onChain(user.userName)).toBe(before + 20_000_000n)
    } finally {
      await rpc('evm_setAutomine', [true])
    }
  })

  test('a legacy payout stuck at the gas price cap is not replaced: an alarm tells operators once', async () => {
    const { user, id } = await approved('15')
    const before = await onChain(user.userName)
    await rpc('evm_setAutomine', [false])
    try {
      await sender().tick()
      const first = await row(id)
      const sent = parseTransaction(first.raw!)
      // The cap is what the payout offers already: no room for a raise.
      await settings().set('payoutMaxFeeGwei', formatUnits(sent.gasPrice!, 9), 'test')
      await gasPriceRisesTo(sent.gasPrice! * 2n)
      await chain.fixture.mine(REPLACE_AFTER)
      await sender().tick()
      await sender().tick()
      expect(await row(id)).toMatchObject({ status: 1, hash: first.hash, replacements: 0 })
      const alarms = await t.db.pool.query(
        `SELECT kind, detail->>'gasPrice' AS "gasPrice" FROM operator_alarms
         WHERE kind = 'payout_stuck'`,
      )
      expect(alarms.rows).toEqual([{ kind: 'payout_stuck', gasPrice: String(sent.gasPrice) }])

      // The cap raised: replaced on the next run, mined, and the alarm ends.
      await settings().set('payoutMaxFeeGwei', '500', 'test')
      await sender().tick()
      expect((await row(id)).replacements).toBe(1)
      await chain.fixture.mine(1)
      await rpc('evm_setAutomine', [true])
      await payToTheEnd(id)
      expect(await onChain(user.userName)).toBe(before + 15_000_000n)
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
