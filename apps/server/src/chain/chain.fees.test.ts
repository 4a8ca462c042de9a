import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { feesFromHistory, replacementFees } from './chain.fees.ts'

const gwei = (n: number) => BigInt(n) * 1_000_000_000n

describe('payout fees', () => {
  test('fees follow the fee history: twice the next base fee plus the median tip, under the cap', () => {
    const history = {
      baseFeePerGas: [gwei(10), gwei(30)],
      reward: [[gwei(1)], [gwei(3)], [gwei(2)]],
    }
    expect(feesFromHistory(history, gwei(500))).toEqual({
      maxFeePerGas: gwei(62),
      maxPriorityFeePerGas: gwei(2),
    })
    expect(feesFromHistory(history, gwei(40))).toEqual({
      maxFeePerGas: gwei(40),
      maxPriorityFeePerGas: gwei(2),
    })
    // No base fee: not an EIP-1559 chain.
    expect(feesFromHistory({ baseFeePerGas: [] }, gwei(500))).toBeNull()
  })

  test('a replacement raises both fees by at least 12.5%, never above the cap', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: gwei(1000) }),
        fc.bigInt({ min: 1_000_000n, max: gwei(100) }),
        fc.bigInt({ min: 0n, max: gwei(1000) }),
        fc.integer({ min: 13, max: 100 }),
        fc.bigInt({ min: 1n, max: gwei(2000) }),
        (fee, tipRaw, nowFee, bump, cap) => {
          const sent = { maxFeePerGas: fee, maxPriorityFeePerGas: tipRaw > fee ? fee : tipRaw }
          const now = { maxFeePerGas: nowFee, maxPriorityFeePerGas: 0n }
          const next = replacementFees(sent, now, bump, cap)
          if (next === null) return
          expect(next.maxFeePerGas * 1000n).toBeGreaterThanOrEqual(sent.maxFeePerGas * 1125n)
          expect(next.maxPriorityFeePerGas * 1000n).toBeGreaterThanOrEqual(
            sent.maxPriorityFeePerGas * 1125n,
          )
          expect(next.maxFeePerGas).toBeLessThanOrEqual(cap)
          expect(next.maxPriorityFeePerGas).toBeLessThanOrEqual(next.maxFeePerGas)
        },
      ),
    )
  })

  test('at the cap there is no replacement', () => {
    const sent = { maxFeePerGas: gwei(480), maxPriorityFeePerGas: gwei(2) }
    expect(replacementFees(sent, sent, 25, gwei(500))).toBeNull()
    expect(replacementFees(sent, sent, 25, gwei(600))).toEqual({
      maxFeePerGas: gwei(600),
      maxPriorityFeePerGas: gwei(2) + gwei(1) / 2n,
    })
  })
})
