import { describe, expect, it } from 'vitest'
import { quoteWithFee } from './quote.ts'

const terms = { decimals: 6, fixed: '1', rate: '0.01' }

describe('quoteWithFee', () => {
  it('quotes the amount, fee and total when they fit what is available, to the last unit', () => {
    // 100 + (1 + 1 % of 100) = 102.
    expect(quoteWithFee(100_000000n, terms, '102')).toEqual({
      amount: '100',
      fee: '2',
      total: '102',
    })
  })

  it('names what is missing when amount and fee are one unit over', () => {
    expect(quoteWithFee(100_000000n, terms, '101.999999')).toEqual({
      problem: 'insufficient',
      shortfall: '0.000001',
    })
  })

  it('rounds the proportional part up to the smallest unit', () => {
    // 1 % of 0.000001 is charged as 0.000001.
    expect(quoteWithFee(1n, { decimals: 6, fixed: '0', rate: '0.01' }, '1')).toEqual({
      amount: '0.000001',
      fee: '0.000001',
      total: '0.000002',
    })
  })
})
