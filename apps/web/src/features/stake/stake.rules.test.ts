import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ratePercent } from '../../lib/format/format.ts'
import type { GameInfo } from '@hope/api'
import {
  checkEntry,
  checkRedeem,
  checkStake,
  cutDecimals,
  hopeFor,
  hopeUnits,
  maxEntry,
  percentOf,
  redemption,
  showHope,
  showUsdt,
  splitPercents,
  usdtUnits,
} from './stake.rules.ts'

const HOPE = 10n ** 18n
const terms = { redeemShare: '0.8', redeemFeeRate: '0.05' }

/** A redemption as decimal strings, to compare with the worked examples. */
function shown(hope: string, price: string, t = terms) {
  const r = redemption(hopeUnits(hope), usdtUnits(price), t)
  return {
    redeemed: showHope(r.redeemed),
    pledged: showHope(r.pledged),
    gross: showUsdt(r.gross),
    fee: showUsdt(r.fee),
    net: showUsdt(r.net),
  }
}

describe('redemption', () => {
  test('100 HOPE at 0.1: 80 redeemed for 8 USDT less 0.4, 20 pledged', () => {
    expect(shown('100', '0.1')).toEqual({
      redeemed: '80',
      pledged: '20',
      gross: '8',
      fee: '0.4',
      net: '7.6',
    })
  })

  test('100 HOPE at 0.11: 8.8 USDT less 0.44', () => {
    expect(shown('100', '0.11')).toEqual({
      redeemed: '80',
      pledged: '20',
      gross: '8.8',
      fee: '0.44',
      net: '8.36',
    })
  })

  test('reads the rates as the server prints them (NUMERIC text)', () => {
    expect(
      shown('100', '0.100000', { redeemShare: '0.800000', redeemFeeRate: '0.050000' }),
    ).toEqual(shown('100', '0.1'))
  })

  test('rounds the redeemed part and the gross down, the fee up', () => {
    // 0.000000000000000003 × 0.8 = 0.0000000000000000024 → 2 units redeemed, 1 pledged
    expect(redemption(3n, 100000n, terms)).toMatchObject({ redeemed: 2n, pledged: 1n })
    // 1.23456789 HOPE → 0.987654312 redeemed × 0.1 = 0.0987654312 → 0.098765 USDT
    // fee 0.098765 × 0.05 = 0.00493825 → 0.004939
    expect(shown('1.23456789', '0.1')).toEqual({
      redeemed: '0.987654312',
      pledged: '0.246913578',
      gross: '0.098765',
      fee: '0.004939',
      net: '0.093826',
    })
  })

  test('the parts add up exactly, and match the server formula', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (hope, price, sharePpm, feePpm) => {
          const ppm = (n: number) => showUsdt(BigInt(n))
          const r = redemption(hope, price, {
            redeemShare: ppm(sharePpm),
            redeemFeeRate: ppm(feePpm),
          })
          expect(r.redeemed + r.pledged).toBe(hope)
          expect(r.net + r.fee).toBe(r.gross)
          expect(r.fee).toBeGreaterThanOrEqual(0n)
          expect(r.net).toBeGreaterThanOrEqual(0n)
          // the server's redemption.rules.ts, in parts per million
          const redeemed = (hope * BigInt(sharePpm)) / 1_000_000n
          const g = (redeemed * price) / HOPE
          const fee = (g * BigInt(feePpm) + 999_999n) / 1_000_000n
          expect(r).toEqual({
            redeemed,
            pledged: hope - redeemed,
            gross: g,
            fee: fee > g ? g : fee,
            net: g - (fee > g ? g : fee),
          })
        },
      ),
    )
  })
})

describe('consensus entry', () => {
  const ctx = { minEntry: '100', entryStep: '100', available: '500' }
  test.each([
    ['', 'amountRequired'],
    ['  ', 'amountRequired'],
    ['0', 'amountInvalid'],
    ['0.', 'amountInvalid'],
    ['1e3', 'amountInvalid'],
    ['50', 'belowMinimum'],
    ['150', 'notMultiple'],
    ['100.000001', 'notMultiple'],
    ['600', 'insufficient'],
  ] as const)('%j → %s', (text, problem) => {
    expect(checkStake(text, ctx)).toEqual({ problem })
  })

  test('a multiple of the step within the balance is the amount to send', () => {
    expect(checkStake('200', ctx)).toEqual({ amount: '200' })
    expect(checkStake('500.', ctx)).toEqual({ amount: '500' })
    expect(checkStake('300', { ...ctx, entryStep: '100.000000' })).toEqual({ amount: '300' })
  })

  test('"max" is the largest multiple of the step the balance pays', () => {
    const u = usdtUnits
    expect(maxEntry(u('1234.5'), u('100'), u('100'))).toBe(u('1200'))
    expect(maxEntry(u('99.99'), u('100'), u('100'))).toBe(0n)
    expect(maxEntry(u('250'), u('200'), u('50'))).toBe(u('250'))
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (available, min, step) => {
          const max = maxEntry(available, min, step)
          if (max === 0n) return
          expect(max).toBeLessThanOrEqual(available)
          expect(max).toBeGreaterThanOrEqual(min)
          expect(max % step).toBe(0n)
          expect(max + step).toBeGreaterThan(available)
        },
      ),
    )
  })

  test('the HOPE estimate at the real-time price', () => {
    expect(showHope(hopeFor(usdtUnits('100'), usdtUnits('0.1')))).toBe('1000')
    expect(showHope(hopeFor(usdtUnits('100'), usdtUnits('0.11')))).toBe('909.090909090909090909')
    expect(hopeFor(usdtUnits('100'), 0n)).toBe(0n)
  })
})

describe('consensus entry while typing', () => {
  const info = {
    price: '0.1',
    minEntry: '100',
    entryStep: '100',
    dailyRate: '0.005',
    capMultiple: '2.5',
  } as GameInfo

  test('no estimate for what the server would refuse; a shortfall over the balance', () => {
    expect(checkEntry(null, info, '500')).toEqual({ problem: 'amountRequired' })
    expect(checkEntry(50_000000n, info, '500')).toEqual({ problem: 'belowMinimum' })
    expect(checkEntry(600_000000n, info, '500')).toEqual({
      problem: 'insufficient',
      shortfall: '100',
    })
    expect(checkEntry(200_000000n, info, '500')).toMatchObject({
      quote: { amount: '200', hope: '2000', cap: '500' },
    })
  })

  test('a quote only for a multiple of the step from the minimum up to the balance', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (units, balance) => {
          const check = checkEntry(units, info, showUsdt(balance))
          const fits = units >= 100_000000n && units % 100_000000n === 0n && units <= balance
          expect('quote' in check).toBe(fits)
          if ('shortfall' in check) expect(usdtUnits(check.shortfall ?? '0')).toBe(units - balance)
        },
      ),
    )
  })
})

describe('redemption checks', () => {
  test.each([
    ['', 'amountRequired'],
    ['0', 'amountInvalid'],
    ['0.000000000000000000', 'amountInvalid'],
    ['1.0000000000000000001', 'amountInvalid'],
    ['1200.500000000000000001', 'insufficient'],
    ['abc', 'amountInvalid'],
  ] as const)('%j → %s', (text, problem) => {
    expect(checkRedeem(text, '1200.5')).toEqual({ problem })
  })
  test('up to the whole community balance, to the last of 18 decimals', () => {
    expect(checkRedeem('1200.5', '1200.500000000000000000')).toEqual({
      units: hopeUnits('1200.5'),
    })
    expect(checkRedeem('0.000000000000000001', '1')).toEqual({ units: 1n })
  })
})

describe('display', () => {
  test('percentages of a whole, rounded down, within 0–100', () => {
    expect(percentOf(123_456n, 1_000_000n)).toBe('12.34')
    expect(percentOf(0n, 1_000_000n)).toBe('0')
    expect(percentOf(5n, 0n)).toBe('0')
    expect(percentOf(2n, 1n)).toBe('100')
    expect(percentOf(hopeUnits('999999.999'), hopeUnits('1000000'))).toBe('99.99')
  })
  test('rates as percentages', () => {
    expect(ratePercent('0.005')).toBe('0.5')
    expect(ratePercent('0.010000')).toBe('1')
    expect(ratePercent('0.05')).toBe('5')
    expect(ratePercent('2.5')).toBe('250')
    expect(splitPercents('0.8')).toEqual({ redeem: '80', pledge: '20' })
    expect(splitPercents('0.800000')).toEqual({ redeem: '80', pledge: '20' })
    expect(splitPercents('0.333333')).toEqual({ redeem: '33.3333', pledge: '66.6667' })
  })
  test('HOPE cut to fewer decimals, never rounded up', () => {
    expect(cutDecimals('909.090909090909090909', 6)).toBe('909.090909')
    expect(cutDecimals('1.9999999', 6)).toBe('1.999999')
    expect(cutDecimals('12.000000100', 6)).toBe('12')
    expect(cutDecimals('7', 6)).toBe('7')
  })
})
