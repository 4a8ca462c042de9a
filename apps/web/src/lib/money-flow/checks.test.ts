import fc from 'fast-check'
import { formatAmount } from '@hope/api'
import { describe, expect, test } from 'vitest'
import { toUnits } from '../format/money-input.ts'
import { shortfallOf } from './checks.ts'

describe('shortfallOf', () => {
  test('what is missing, or nothing', () => {
    expect(shortfallOf('500', '5000')).toBe('4500')
    expect(shortfallOf('500.5', '500')).toBe('0')
  })
  test('available plus the shortfall always pays the price', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        (a, p) => {
          const gap = toUnits(shortfallOf(formatAmount(a, 6), formatAmount(p, 6)), 6)
          expect(a + gap >= p).toBe(true)
          expect(gap === 0n || a + gap === p).toBe(true)
        },
      ),
    )
  })
})
