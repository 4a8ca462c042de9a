import { formatAmount } from '@hope/api'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { feeFor, maxBeforeFee } from '../../lib/format/fee.ts'
import { toUnits } from '../../lib/format/money-input.ts'
import {
  canCancel,
  checkWithdraw,
  withdrawalTotal,
  withdrawTerms,
  type WithdrawTerms,
} from './withdraw.rules.ts'

const OWN = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const terms = (changes: Partial<WithdrawTerms> = {}): WithdrawTerms => ({
  decimals: 6,
  minWithdraw: '10',
  withdrawFeeFixed: '1',
  withdrawFeeRate: '0',
  ...changes,
})
const units = (text: string) => toUnits(text, 6)

describe('withdraw rules', () => {
  const ctx = { terms: terms(), available: '50.5' }
  test.each([
    [{ amount: '', address: OWN }, 'amountRequired'],
    [{ amount: '', address: '' }, 'amountRequired'],
    [{ amount: '0', address: OWN }, 'amountInvalid'],
    [{ amount: '1.1234567', address: OWN }, 'amountInvalid'],
    [{ amount: '9.999999', address: OWN }, 'amountBelowMinimum'],
    [{ amount: '10', address: ' ' }, 'addressRequired'],
    [{ amount: '10', address: '0x12' }, 'addressInvalid'],
  ] as const)('%j → %s', (form, problem) => {
    expect(checkWithdraw(form, ctx)).toEqual({ problem })
  })

  test('over the balance, fee included, says what is missing', () => {
    expect(checkWithdraw({ amount: '49.500001', address: OWN }, ctx)).toEqual({
      problem: 'insufficient',
      shortfall: '0.000001',
    })
  })

  test('a quote never spends more than the balance; a refusal for it names the gap', () => {
    const percent = terms({ withdrawFeeRate: '0.005' })
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10_000000n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (amount, available) => {
          const check = checkWithdraw(
            { amount: formatAmount(amount, 6), address: OWN },
            { terms: percent, available: formatAmount(available, 6) },
          )
          const total = amount + feeFor(amount, withdrawTerms(percent))
          if ('quote' in check) expect(units(check.quote.total)).toBeLessThanOrEqual(available)
          else expect(units(check.shortfall ?? '0')).toBe(total - available)
        },
      ),
    )
  })

  test('the quote: amount as sent, the fee on top, the total and the trimmed address', () => {
    expect(checkWithdraw({ amount: '12.', address: ` ${OWN} ` }, ctx)).toEqual({
      quote: { amount: '12', fee: '1', total: '13', address: OWN },
    })
    expect(
      checkWithdraw({ amount: '49.5', address: OWN }, { ...ctx, available: '50.500000' }),
    ).toEqual({ quote: { amount: '49.5', fee: '1', total: '50.5', address: OWN } })
  })

  test('a proportional fee rounds up; "all" leaves room for it', () => {
    const rated = terms({ withdrawFeeFixed: '1', withdrawFeeRate: '0.003' })
    expect(feeFor(units('100.000001'), withdrawTerms(rated))).toBe(units('1.300001'))
    const max = maxBeforeFee(units('101.3'), withdrawTerms(rated))
    expect(max + feeFor(max, withdrawTerms(rated))).toBeLessThanOrEqual(units('101.3'))
    expect(max + 1n + feeFor(max + 1n, withdrawTerms(rated))).toBeGreaterThan(units('101.3'))
    expect(maxBeforeFee(units('0.5'), withdrawTerms(terms()))).toBe(0n)
  })

  test('only a withdrawal pending review can be cancelled', () => {
    const onlyPending = [true, false, false, false, false, false, false]
    expect([0, 1, 2, 3, 4, 5, 6].map((status) => canCancel({ status: status as 0 }))).toEqual(
      onlyPending,
    )
  })

  test('the total deducted is the amount and the fee the server charged', () => {
    expect(withdrawalTotal({ amount: '100.000000', fee: '1.500000' })).toBe('101.5')
  })
})
