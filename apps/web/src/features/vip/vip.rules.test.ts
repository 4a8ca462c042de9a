import { describe, expect, test } from 'vitest'
import { ratePercent } from '../../lib/format/format.ts'
import {
  cutDecimals,
  levelName,
  levelRows,
  quoteUpgrade,
  shortfall,
  splitRemaining,
  upgradeCost,
} from './vip.rules.ts'

const PRICES = ['100', '300', '500', '1000', '3000', '5000', '10000']

describe('vip rules', () => {
  test('an upgrade pays only the difference of the two prices', () => {
    expect(upgradeCost(PRICES, 0, 1)).toBe('100')
    expect(upgradeCost(PRICES, 2, 3)).toBe('200')
    expect(upgradeCost(PRICES, 1, 7)).toBe('9900')
    expect(upgradeCost(['100.5', '300.25'], 1, 2)).toBe('199.75')
  })

  test('no upgrade to a level held, a lower one, or one without a price', () => {
    expect(upgradeCost(PRICES, 3, 3)).toBeNull()
    expect(upgradeCost(PRICES, 3, 2)).toBeNull()
    expect(upgradeCost(PRICES.slice(0, 3), 1, 4)).toBeNull()
  })

  test('rows: owned up to the current level, the rest with what they cost now', () => {
    const rows = levelRows({ level: 2, levelPrices: PRICES })
    expect(rows.map((r) => r.name)).toEqual([
      'bronze',
      'silver',
      'gold',
      'platinum',
      'diamond',
      'stars',
      'supreme',
    ])
    expect(rows.map((r) => r.owned)).toEqual([true, true, false, false, false, false, false])
    expect(rows.map((r) => r.cost)).toEqual([null, null, '200', '700', '2700', '4700', '9700'])
    expect(levelRows({ level: 0, levelPrices: ['100.000000'] })).toEqual([
      { level: 1, name: 'bronze', price: '100', owned: false, cost: '100' },
    ])
  })

  test('what the available USDT lacks', () => {
    expect(shortfall('150', '200')).toBe('50')
    expect(shortfall('200.000000', '200')).toBeNull()
    expect(shortfall('199.999999', '200')).toBe('0.000001')
  })

  test('split HOPE still to come, rates as percentages, names and cut decimals', () => {
    expect(splitRemaining('1000', '250.5')).toBe('749.5')
    expect(splitRemaining('1', '2')).toBe('0')
    expect(ratePercent('0.010000')).toBe('1')
    expect(ratePercent('0.005')).toBe('0.5')
    expect(levelName(7)).toBe('supreme')
    expect(levelName(9)).toBe('none')
    expect(cutDecimals('-909.090909090909090909', 6)).toBe('-909.090909')
    expect(cutDecimals('12.000000100', 6)).toBe('12')
  })

  test('an upgrade quote says what the balance lacks, nothing when it pays', () => {
    expect(quoteUpgrade(2, { level: 3, cost: '200' }, '150')).toEqual({
      from: 2,
      to: 3,
      cost: '200',
      missing: '50',
    })
    expect(quoteUpgrade(2, { level: 3, cost: '200' }, '200').missing).toBeNull()
  })
})
