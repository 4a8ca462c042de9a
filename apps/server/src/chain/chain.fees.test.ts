import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  feesFromHistory,
  feesOfTransaction,
  legacyGasPrice,
  replacementFees,
  replacementGasPrice,
  replacementPayoutFees,
} from './chain.fees.ts'

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

  test('without EIP-1559: the gas price of the chain, under the cap, never zero', () => {
    expect(legacyGasPrice(gwei(3), gwei(500))).toBe(gwei(3))
    expect(legacyGasPrice(gwei(3), gwei(2))).toBe(gwei(2))
    expect(legacyGasPrice(0n, gwei(2))).toBe(1_000_000n)
  })

  test('a legacy replacement raises the gas price by at least 12.5%, never above the cap', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1_000_000n, max: gwei(1000) }),
        fc.bigInt({ min: 0n, max: gwei(1000) }),
        fc.integer({ min: 13, max: 100 }),
        fc.bigInt({ min: 1n, max: gwei(2000) }),
        (sent, now, bump, cap) => {
          const next = replacementGasPrice(sent, now, bump, cap)
          if (next === null) {
            // Only when the cap leaves no room.
            expect(cap * 1000n).toBeLessThan(sent * 1125n)
            return
          }
          expect(next * 1000n).toBeGreaterThanOrEqual(sent * 1125n)
          expect(next).toBeLessThanOrEqual(cap)
          expect(next >= now || next === cap).toBe(true)
        },
      ),
    )
    expect(replacementGasPrice(gwei(2), gwei(5), 25, gwei(500))).toBe(gwei(5))
    expect(replacementGasPrice(gwei(2), gwei(5), 25, gwei(2))).toBeNull()
  })

  test('a replacement keeps the type the payout was sent with', () => {
    const legacy = feesOfTransaction({ type: 'legacy', gasPrice: gwei(4) })!
    expect(legacy).toEqual({ type: 'legacy', gasPrice: gwei(4) })
    expect(
      replacementPayoutFees(legacy, { type: 'legacy', gasPrice: gwei(1) }, 25, gwei(500)),
    ).toEqual({ type: 'legacy', gasPrice: gwei(5) })
    const eip1559 = feesOfTransaction({
      type: 'eip1559',
      maxFeePerGas: gwei(8),
      maxPriorityFeePerGas: gwei(2),
    })!
    expect(replacementPayoutFees(eip1559, eip1559, 25, gwei(500))).toEqual({
      type: 'eip1559',
      maxFeePerGas: gwei(10),
      maxPriorityFeePerGas: gwei(2) + gwei(1) / 2n,
    })
    expect(
      feesOfTransaction({ type: 'eip4844', maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    ).toBeNull()
  })
})
