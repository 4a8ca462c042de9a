import { describe, expect, test } from 'vitest'
import { formatNumber } from './format.ts'

describe('formatNumber', () => {
  test('groups the integer part per language', () => {
    expect(formatNumber('1234567', 'en')).toBe('1,234,567')
    expect(formatNumber('1234567', 'zhcn')).toBe('1,234,567')
    expect(formatNumber('1234567.5', 'vi')).toBe('1.234.567,5')
  })
  test('keeps every fraction digit without float loss', () => {
    expect(formatNumber('12345678901234567890.123456789012345678', 'en')).toBe(
      '12,345,678,901,234,567,890.123456789012345678',
    )
    expect(formatNumber('0.10', 'ja')).toBe('0.10')
    expect(formatNumber('-1000.5', 'ko')).toBe('-1,000.5')
  })
  test('returns anything else unchanged', () => {
    expect(formatNumber('abc', 'en')).toBe('abc')
    expect(formatNumber(2500, 'th')).toBe('2,500')
  })
})
