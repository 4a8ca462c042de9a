import { describe, expect, test } from 'vitest'
import { DECIMAL_PATTERN, groupDigits, shorten, utcOffsetLabel } from './format.ts'

describe('format', () => {
  test('groups the integer part of a decimal string without touching its digits', () => {
    expect(groupDigits('1234567.000000000000000001')).toBe('1,234,567.000000000000000001')
    expect(groupDigits('-1000')).toBe('-1,000')
    expect(groupDigits('12')).toBe('12')
    expect(groupDigits(null)).toBe('-')
  })

  test('names a time zone by its offset from UTC', () => {
    expect(utcOffsetLabel(480)).toBe('UTC+8')
    expect(utcOffsetLabel(-150)).toBe('UTC-2:30')
    expect(utcOffsetLabel(0)).toBe('UTC+0')
  })
  test('shortens long addresses only', () => {
    expect(shorten('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234…5678')
    expect(shorten('0x12')).toBe('0x12')
  })

  test('accepts plain decimals only', () => {
    expect(DECIMAL_PATTERN.test('10.5')).toBe(true)
    expect(DECIMAL_PATTERN.test('-1')).toBe(false)
    expect(DECIMAL_PATTERN.test('1e3')).toBe(false)
    expect(DECIMAL_PATTERN.test('01')).toBe(false)
  })
})
