import { formatAmount, LANGS } from '@hope/api'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatNumber } from '../format/format.ts'
import { readAmount, writeAmount } from './amount.ts'

const USDT = 6

describe('readAmount', () => {
  test.each([
    ['100', 'en', 100_000000n],
    ['1,000', 'en', 1_000_000000n],
    ['1,000.5', 'en', 1_000_500000n],
    ['12.', 'en', 12_000000n],
    ['0.000001', 'zhcn', 1n],
    ['1.000,5', 'vi', 1_000_500000n],
    ['1,000', 'vi', 1_000000n],
    ['007', 'ja', 7_000000n],
  ] as const)('%s in %s is an amount', (text, lang, units) => {
    expect(readAmount(text, USDT, lang)).toEqual({ units })
  })

  test.each([
    ['-5', 'negative'],
    ['1e3', 'exponent'],
    ['1E3', 'exponent'],
    ['1.2.3', 'twoDecimalSeparators'],
    ['1,00', 'misplacedGrouping'],
    ['1.5,000', 'misplacedGrouping'],
    ['1.1234567', 'tooManyDecimals'],
    ['abc', 'notANumber'],
    ['12 5', 'notANumber'],
    ['0', 'zero'],
    ['1'.repeat(21), 'tooLarge'],
  ] as const)('%s is refused as %s', (text, problem) => {
    expect(readAmount(text, USDT, 'en')).toEqual({ problem })
  })

  test('empty is not a problem yet', () => {
    expect(readAmount('  ', USDT, 'en')).toEqual({ empty: true })
  })

  test('every field takes at most six decimals, HOPE (18) too', () => {
    expect(readAmount('1.1234567', 18, 'en')).toEqual({ problem: 'tooManyDecimals' })
    expect(readAmount('1.123456', 18, 'en')).toEqual({ units: 1_123456n * 10n ** 12n })
    expect(writeAmount(1_123456789n * 10n ** 9n, 18, 'en')).toBe('1.123456')
  })

  test('a whole-number currency takes no decimals', () => {
    expect(readAmount('1.5', 0, 'en')).toEqual({ problem: 'tooManyDecimals' })
  })

  const units = fc.bigInt({ min: 1n, max: 10n ** 20n - 1n })
  const lang = fc.constantFrom(...LANGS)

  test('reads back what it writes, in every language', () => {
    fc.assert(
      fc.property(units, lang, (u, l) => {
        expect(readAmount(writeAmount(u, USDT, l), USDT, l)).toEqual({ units: u })
      }),
    )
  })

  test('reads back the grouped numbers the app shows, in every language', () => {
    fc.assert(
      fc.property(units, lang, (u, l) => {
        expect(readAmount(formatNumber(formatAmount(u, USDT), l), USDT, l)).toEqual({ units: u })
      }),
    )
  })

  test('never takes a negative or an exponent, wherever it stands', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('-', 'e', 'E'), fc.string(), lang, (a, c, b, l) => {
        expect('units' in readAmount(a + c + b, USDT, l)).toBe(false)
      }),
    )
  })
})
