import { describe, expect, test } from 'vitest'
import { amountDecimals, checkRechargeAmount, lacksGas } from './recharge.rules.ts'

describe('recharge rules', () => {
  test('the amount takes the token decimals, at most the 6 of the USDT account', () => {
    expect(amountDecimals(6)).toBe(6)
    expect(amountDecimals(18)).toBe(6)
    expect(amountDecimals(2)).toBe(2)
  })

  test.each([
    ['', 'amountRequired'],
    ['0', 'amountInvalid'],
    ['1.1234567', 'amountInvalid'],
    ['100.000001', 'insufficient'],
  ] as const)('%j → %s', (text, problem) => {
    expect(checkRechargeAmount(text, 6, 100_000000n)).toEqual({ problem })
  })

  test('an amount in the token units; no balance known yet is no refusal', () => {
    expect(checkRechargeAmount('100', 6, 100_000000n)).toEqual({ units: 100_000000n })
    expect(checkRechargeAmount('12.5', 18, null)).toEqual({ units: 125n * 10n ** 17n })
    expect(checkRechargeAmount('1.0000001', 18, null)).toEqual({ problem: 'amountInvalid' })
  })

  test('gas is lacking only when there is a token to send and no native coin', () => {
    expect(lacksGas({ token: 1n, native: 0n })).toBe(true)
    expect(lacksGas({ token: 1n, native: 1n })).toBe(false)
    expect(lacksGas({ token: 0n, native: 0n })).toBe(false)
  })
})
