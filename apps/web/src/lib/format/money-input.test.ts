import { describe, expect, test } from 'vitest'
import { acceptAmountInput, readTypedAmount, toUnits } from './money-input.ts'

describe('amount input', () => {
  test.each(['12', '12.5', '0.000001', '', '12.', '100000.123456'])('accepts %j', (text) => {
    expect(acceptAmountInput(text, 6)).toBe(text)
  })
  test.each(['1e5', '-1', '1.1234567', 'abc', '1.2.3', '1..2', '+1', '1 000', '0x10'])(
    'refuses %j',
    (text) => {
      expect(acceptAmountInput(text, 6)).toBeNull()
    },
  )
  test('tidies what a keypad produces', () => {
    expect(acceptAmountInput('.5', 6)).toBe('0.5')
    expect(acceptAmountInput('007', 6)).toBe('7')
    expect(acceptAmountInput('0.50', 6)).toBe('0.50')
    expect(acceptAmountInput('1,5', 6)).toBe('1.5')
    expect(acceptAmountInput('1,5.2', 6)).toBeNull()
  })
  test('no fraction at all for a currency without decimals', () => {
    expect(acceptAmountInput('3', 0)).toBe('3')
    expect(acceptAmountInput('3.', 0)).toBeNull()
  })
})

describe('minor units', () => {
  test('cuts, never rounds up, a balance with more digits than the currency', () => {
    expect(toUnits('12.3456789', 6)).toBe(12_345_678n)
    expect(toUnits('500.000000000000000000', 6)).toBe(500_000_000n)
  })
  test('what was typed, read for sending', () => {
    expect(readTypedAmount('', 6)).toEqual({ problem: 'amountRequired' })
    expect(readTypedAmount('  ', 6)).toEqual({ problem: 'amountRequired' })
    expect(readTypedAmount('0', 6)).toEqual({ problem: 'amountInvalid' })
    expect(readTypedAmount('0.', 6)).toEqual({ problem: 'amountInvalid' })
    expect(readTypedAmount('1.1234567', 6)).toEqual({ problem: 'amountInvalid' })
    expect(readTypedAmount('12.', 6)).toEqual({ units: 12_000_000n })
    expect(readTypedAmount('0.000001', 6)).toEqual({ units: 1n })
  })
})
