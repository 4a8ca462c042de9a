import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { SETTING_DEFAULTS } from '../modules/settings/settings.rules.ts'
import { currentStage, hopePrice, valueInUsdt } from './pricing.ts'

describe('stage pricing', () => {
  test('stage 1 at 0.10, +0.01 per 1,000,000 HOPE sold', () => {
    expect(currentStage('0', SETTING_DEFAULTS)).toBe(1)
    expect(hopePrice('0', SETTING_DEFAULTS)).toBe('0.1')
    expect(hopePrice('999999.999999999999999999', SETTING_DEFAULTS)).toBe('0.1')
    expect(hopePrice('1000000', SETTING_DEFAULTS)).toBe('0.11')
    expect(hopePrice('25000000', SETTING_DEFAULTS)).toBe('0.35')
  })
  test('price never falls as more is sold', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (a, b) => {
          const [lo, hi] = a < b ? [a, b] : [b, a]
          return (
            Number(hopePrice(String(lo), SETTING_DEFAULTS)) <=
            Number(hopePrice(String(hi), SETTING_DEFAULTS))
          )
        },
      ),
    )
  })
})

describe('valuation', () => {
  test('HOPE at the price, rounded down to the micro-USDT; USDT as is', () => {
    expect(valueInUsdt('2.5', 'HOPE', '0.1')).toBe('0.25')
    expect(valueInUsdt('0.000000000000000001', 'HOPE', '0.1')).toBe('0')
    expect(valueInUsdt('12.000000000000000000', 'USDT', '0.1')).toBe('12')
  })
})
