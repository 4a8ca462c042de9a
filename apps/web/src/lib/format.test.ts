import { describe, expect, test } from 'vitest'
import { formatMoney, formatNumber } from './format.ts'

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

describe('formatMoney', () => {
  test('drops trailing zeros and groups per language', () => {
    expect(formatMoney('1234.500000', 'en')).toBe('1,234.5')
    expect(formatMoney('1234567.120000000000000000', 'vi')).toBe('1.234.567,12')
    expect(formatMoney('0.000001', 'zhcn')).toBe('0.000001')
    expect(formatMoney('500.000000', 'ja')).toBe('500')
  })
  test('signs positive amounts when asked, never zero', () => {
    expect(formatMoney('12.50', 'en', { signed: true })).toBe('+12.5')
    expect(formatMoney('-1000', 'en', { signed: true })).toBe('-1,000')
    expect(formatMoney('0.000', 'en', { signed: true })).toBe('0')
  })
})
