import { formatAmount, type EnabledCoin } from '@hope/api'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { feeFor, maxBeforeFee } from '../../lib/format/fee.ts'
import { toUnits } from '../../lib/format/money-input.ts'
import { enabledCoins } from '../../../test-support/fixtures.ts'
import { checkTransfer, transferTerms } from './transfer.rules.ts'

const usdt = (fees: Partial<EnabledCoin> = {}): EnabledCoin => enabledCoins(fees)[0]!
const units = (usdtText: string) => toUnits(usdtText, 6)

describe('fee and total', () => {
  test('fixed plus amount × rate', () => {
    const coin = usdt({ transferFeeFixed: '1', transferFeeRate: '0.01' })
    expect(feeFor(units('100'), transferTerms(coin))).toBe(units('2'))
    const check = checkTransfer(
      { address: `0x${'a'.repeat(40)}`, amount: '100' },
      { coin, available: '500' },
    )
    expect(check).toEqual({
      quote: { address: `0x${'a'.repeat(40)}`, amount: '100', fee: '2', total: '102' },
    })
  })
  test('rounds the proportional part up to the smallest unit', () => {
    const coin = usdt({ transferFeeRate: '0.003' })
    // 1.000001 × 0.003 = 0.003000003 → 0.003001
    expect(feeFor(units('1.000001'), transferTerms(coin))).toBe(units('0.003001'))
    expect(feeFor(units('1'), transferTerms(coin))).toBe(units('0.003'))
  })
  test('reads the rate and the fixed part as the server prints them (NUMERIC text)', () => {
    const coin = usdt({ transferFeeFixed: '0.500000', transferFeeRate: '0.010000000000000000' })
    expect(feeFor(units('10'), transferTerms(coin))).toBe(units('0.6'))
  })
  test('no fee by default', () => {
    expect(feeFor(units('123.456789'), transferTerms(usdt()))).toBe(0n)
  })
  test('"all" leaves room for the fee', () => {
    const coin = usdt({ transferFeeFixed: '1', transferFeeRate: '0.01' })
    const max = maxBeforeFee(units('103'), transferTerms(coin))
    expect(max + feeFor(max, transferTerms(coin))).toBeLessThanOrEqual(units('103'))
    expect(max + 1n + feeFor(max + 1n, transferTerms(coin))).toBeGreaterThan(units('103'))
    expect(maxBeforeFee(units('500.25'), transferTerms(usdt()))).toBe(units('500.25'))
    expect(maxBeforeFee(units('0.5'), transferTerms(usdt({ transferFeeFixed: '1' })))).toBe(0n)
  })
})

describe('checks before sending', () => {
  const address = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  const ctx = { coin: usdt({ minTransfer: '10' }), available: '50' }
  test.each([
    [{ address: '', amount: '' }, 'addressRequired'],
    [{ address: '  ', amount: '5' }, 'addressRequired'],
    [{ address: '0x123', amount: '20' }, 'addressInvalid'],
    [{ address, amount: '' }, 'amountRequired'],
    [{ address, amount: '0' }, 'amountInvalid'],
    [{ address, amount: '0.' }, 'amountInvalid'],
    [{ address, amount: '9.999999' }, 'amountTooSmall'],
  ] as const)('%j → %s', (form, problem) => {
    expect(checkTransfer(form, ctx)).toEqual({ problem })
  })
  test('over the balance says what is missing', () => {
    expect(checkTransfer({ address, amount: '50.000001' }, ctx)).toEqual({
      problem: 'insufficient',
      shortfall: '0.000001',
    })
  })
  test('a quote never spends more than the balance; a refusal for it names the gap', () => {
    const coin = usdt({ transferFeeFixed: '1', transferFeeRate: '0.01' })
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (amount, available) => {
          const check = checkTransfer(
            { address, amount: formatAmount(amount, 6) },
            { coin, available: formatAmount(available, 6) },
          )
          const total = amount + feeFor(amount, transferTerms(coin))
          if ('quote' in check) expect(units(check.quote.total)).toBeLessThanOrEqual(available)
          else if (check.problem === 'insufficient')
            expect(units(check.shortfall ?? '0')).toBe(total - available)
        },
      ),
    )
  })
  test('a trailing point is the whole number', () => {
    expect(checkTransfer({ address, amount: '12.' }, ctx)).toMatchObject({
      quote: { amount: '12' },
    })
  })
  test('the fee counts against the available balance', () => {
    const coin = usdt({ transferFeeFixed: '1' })
    expect(checkTransfer({ address, amount: '50' }, { coin, available: '50' })).toEqual({
      problem: 'insufficient',
      shortfall: '1',
    })
    expect(checkTransfer({ address, amount: '49' }, { coin, available: '50' })).toMatchObject({
      quote: { total: '50' },
    })
  })
})
