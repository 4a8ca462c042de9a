import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { axisPrice } from './quote-chart.tsx'
import { changeTone, chartData, formatChange, roundPrice } from './quotes.rules.ts'

describe('quotes rules', () => {
  test('a change reads signed with its tone', () => {
    expect([formatChange('5.26', 'en'), changeTone('5.26')]).toEqual(['+5.26%', 'up'])
    expect([formatChange('-3.10', 'en'), changeTone('-3.10')]).toEqual(['-3.10%', 'down'])
    expect([formatChange('0.00', 'en'), changeTone('0.00')]).toEqual(['0.00%', 'flat'])
    expect([formatChange(null, 'en'), changeTone(null)]).toEqual([null, 'flat'])
  })

  test('a change and the chart axis write numbers as the language does', () => {
    expect(formatChange('5.26', 'vi')).toBe('+5,26%')
    expect(formatChange('0.00', 'vi')).toBe('0,00%')
    expect(axisPrice(3000.05, 2, 'vi')).toBe('3.000,05')
    expect(axisPrice(3000.05, 2, 'en')).toBe('3,000.05')
  })

  test('prices round half up to the shown decimals, zeros kept', () => {
    expect(roundPrice('3123.456', 2)).toBe('3123.46')
    expect(roundPrice('3123.454999', 2)).toBe('3123.45')
    expect(roundPrice('0.1', 4)).toBe('0.1000')
    expect(roundPrice('9.995', 2)).toBe('10.00')
    expect(roundPrice('3000', 2)).toBe('3000.00')
    expect(roundPrice('0.00004', 4)).toBe('0.0000')
    expect(roundPrice('12.5', 0)).toBe('13')
  })

  test('rounding moves a price by at most half a unit of the last decimal', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 8 }),
        (units, d) => {
          const text = units.toString().padStart(19, '0')
          const value = `${text.slice(0, -18)}.${text.slice(-18)}`
          const shown = roundPrice(value, d)
          const shownUnits = BigInt(shown.replace('.', '')) * 10n ** BigInt(18 - d)
          const gap = shownUnits - units
          expect(2n * (gap < 0n ? -gap : gap) <= 10n ** BigInt(18 - d)).toBe(true)
        },
      ),
    )
  })

  test('chart points carry the time and the price as a number', () => {
    expect(chartData([{ t: 1_900_000_000, price: '3123.45' }])).toEqual([
      { time: 1_900_000_000, value: 3123.45 },
    ])
    expect(chartData([{ t: 1_900_000_000, price: '0.1' }], 28_800)).toEqual([
      { time: 1_900_028_800, value: 0.1 },
    ])
  })
})
