import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { checkExchange } from './exchange.rules.ts'
import { hopeUnits, showHope, usdtUnits } from './stake.rules.ts'

const INFO = { price: '0.100000', redeemShare: '0.800000', redeemFeeRate: '0.050000' }
const HOPE = 10n ** 18n

describe('exchange rules', () => {
  test('the spec messages for empty and zero; more than the community account is insufficient', () => {
    expect(checkExchange(null, INFO, '1200.5')).toEqual({ problem: 'amountRequired' })
    expect(checkExchange(0n, INFO, '1200.5')).toEqual({ problem: 'amountInvalid' })
    expect(checkExchange(hopeUnits('1200.5') + 1n, INFO, '1200.5')).toEqual({
      problem: 'insufficient',
    })
  })

  test('the quote of an accepted amount, worked out like the server', () => {
    expect(checkExchange(100n * HOPE, INFO, '1200.5')).toEqual({
      quote: {
        amount: '100',
        price: '0.1',
        redeemed: '80',
        pledged: '20',
        gross: '8',
        fee: '0.4',
        net: '7.6',
      },
    })
  })

  test('every amount up to the balance is quoted, nothing is lost, nothing above it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 27n }),
        fc.bigInt({ min: 0n, max: 10n ** 27n }),
        (units, balance) => {
          const check = checkExchange(units, INFO, showHope(balance))
          if (units > balance) {
            expect(check).toEqual({ problem: 'insufficient' })
          } else {
            if (!('quote' in check)) throw new Error('refused an amount within the balance')
            const q = check.quote
            expect(hopeUnits(q.redeemed) + hopeUnits(q.pledged)).toBe(units)
            expect(usdtUnits(q.net) + usdtUnits(q.fee)).toBe(usdtUnits(q.gross))
          }
        },
      ),
    )
  })
})
