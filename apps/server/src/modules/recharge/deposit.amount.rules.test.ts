import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { depositAmountVerdict } from './deposit.amount.rules.ts'

const BOUND = 1_000_000_000_000n * 10n ** 6n // the default maxAmountUsdt, 10^12 USDT
const UINT256_MAX = 2n ** 256n - 1n

describe('deposit amount verdict', () => {
  test('up to the bound is creditable, one smallest unit more is not', () => {
    expect(depositAmountVerdict(BOUND, 6, BOUND)).toEqual({ creditable: true, credit: BOUND })
    expect(depositAmountVerdict(BOUND + 1n, 6, BOUND)).toEqual({
      creditable: false,
      reason: 'amount_too_large',
    })
    // At 18 decimals the comparison is exact, below the ledger's 6 decimals too.
    const bound18 = BOUND * 10n ** 12n
    expect(depositAmountVerdict(bound18, 18, BOUND)).toEqual({ creditable: true, credit: BOUND })
    expect(depositAmountVerdict(bound18 + 1n, 18, BOUND).creditable).toBe(false)
    expect(depositAmountVerdict(BOUND / 10n ** 6n, 0, BOUND)).toEqual({
      creditable: true,
      credit: BOUND,
    })
    expect(depositAmountVerdict(BOUND / 10n ** 6n + 1n, 0, BOUND).creditable).toBe(false)
  })

  test('any uint256 past the bound is refused, at any decimals', () => {
    for (const decimals of [0, 6, 18, 36])
      expect(depositAmountVerdict(UINT256_MAX, decimals, BOUND)).toEqual({
        creditable: false,
        reason: 'amount_too_large',
      })
  })

  test('the credit keeps 6 decimals, truncating finer dust', () => {
    expect(depositAmountVerdict(12_500_000n, 6, BOUND)).toEqual({
      creditable: true,
      credit: 12_500_000n,
    })
    expect(depositAmountVerdict(1_234_567_891_234_567_891n, 18, BOUND)).toEqual({
      creditable: true,
      credit: 1_234_567n,
    })
    expect(depositAmountVerdict(999_999_999_999n, 18, BOUND)).toEqual({
      creditable: true,
      credit: 0n,
    })
    expect(depositAmountVerdict(5n, 2, BOUND)).toEqual({ creditable: true, credit: 50_000n })
  })

  test('a creditable value never credits more than the bound; a refused one exceeds it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: UINT256_MAX }),
        fc.integer({ min: 0, max: 36 }),
        fc.bigInt({ min: 0n, max: 10n ** 21n }),
        (value, decimals, bound) => {
          const v = depositAmountVerdict(value, decimals, bound)
          const scaled = value * 10n ** 6n
          const limit = bound * 10n ** BigInt(decimals)
          return v.creditable ? v.credit <= bound && scaled <= limit : scaled > limit
        },
      ),
    )
  })
})
