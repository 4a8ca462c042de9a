import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  feeFor,
  HOPE_UNIT,
  hopeFor,
  maxBeforeFee,
  parseRate,
  redemptionSplit,
  usdtFor,
} from './money-rules.ts'

const rateArb = fc
  .tuple(fc.nat(3), fc.nat(999_999))
  .map(([w, f]) => `${w}.${String(f).padStart(6, '0')}`)

describe('money rules the app and the server share', () => {
  test('a rate is a plain decimal of at most 18 decimals', () => {
    expect(parseRate('0.01')).toEqual({ rate: 1n, scale: 100n })
    expect(parseRate('1')).toEqual({ rate: 1n, scale: 1n })
    for (const bad of ['', '-0.1', '1e-3', '0.1234567890123456789', 'abc', '.5'])
      expect(parseRate(bad)).toBeNull()
    expect(() => feeFor(1n, { fixed: 0n, rate: 'x' })).toThrow(RangeError)
  })

  test('the fee rounds up, never under-charging', () => {
    expect(feeFor(100_000_000n, { fixed: 1_000_000n, rate: '0.01' })).toBe(2_000_000n)
    expect(feeFor(1n, { fixed: 0n, rate: '0.001' })).toBe(1n)
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), rateArb, (amount, rate) => {
        const { rate: r, scale } = parseRate(rate)!
        const fee = feeFor(amount, { fixed: 0n, rate })
        expect(fee * scale).toBeGreaterThanOrEqual(amount * r)
        expect((fee - 1n) * scale).toBeLessThan(amount * r)
      }),
    )
  })

  test('"all" spends the most whose fee still fits', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 7n }),
        rateArb,
        (available, fixed, rate) => {
          const amount = maxBeforeFee(available, { fixed, rate })
          if (amount === 0n) return
          expect(amount + feeFor(amount, { fixed, rate })).toBeLessThanOrEqual(available)
          expect(amount + 1n + feeFor(amount + 1n, { fixed, rate })).toBeGreaterThan(available)
        },
      ),
    )
  })

  test('HOPE for USDT and back never pays out more than went in', () => {
    expect(hopeFor(100_000000n, 100000n)).toBe(1000n * HOPE_UNIT)
    expect(hopeFor(5n, 0n)).toBe(0n)
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (usdt, price) => {
          expect(usdtFor(hopeFor(usdt, price), price)).toBeLessThanOrEqual(usdt)
        },
      ),
    )
  })

  test('a redemption splits exactly: redeemed + pledged = hope, net + fee = gross', () => {
    expect(
      redemptionSplit(100n * HOPE_UNIT, 100000n, { redeemShare: '0.8', feeRate: '0.05' }),
    ).toEqual({
      redeemed: 80n * HOPE_UNIT,
      pledged: 20n * HOPE_UNIT,
      gross: 8_000_000n,
      fee: 400_000n,
      net: 7_600_000n,
    })
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.nat(1_000_000),
        fc.nat(1_000_000),
        (hope, price, share, fee) => {
          const s = redemptionSplit(hope, price, {
            redeemShare: { rate: BigInt(share), scale: 1_000_000n },
            feeRate: { rate: BigInt(fee), scale: 1_000_000n },
          })
          expect(s.redeemed + s.pledged).toBe(hope)
          expect(s.net + s.fee).toBe(s.gross)
          expect(s.net).toBeGreaterThanOrEqual(0n)
        },
      ),
    )
  })
})
