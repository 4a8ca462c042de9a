import { describe, expect, test } from 'vitest'
import { USDT_UNIT } from '../../lib/units.ts'
import { upgradeCost } from './membership.rules.ts'

const usdt = (n: number) => BigInt(Math.round(n * 1e6))

describe('upgrades', () => {
  test('an upgrade pays only the difference', () => {
    const prices = [0n, usdt(100), usdt(300), usdt(500)]
    expect(upgradeCost(prices, 1, 3)).toBe(usdt(400))
    expect(() => upgradeCost(prices, 2, 2)).toThrow(RangeError)
    expect(() => upgradeCost(prices, 1, 9)).toThrow(RangeError)
    expect(USDT_UNIT).toBe(1_000_000n)
  })
})
